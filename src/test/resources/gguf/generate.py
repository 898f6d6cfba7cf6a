"""Writes the GGUF files GgufTest reads as gguf-py quantized them, and expected.json, the non-zero
count, sum and absolute sum of gguf-py's own dequantization of each (accumulated in order in double).

    pip install gguf numpy   # these were written by gguf-py 0.19.0
    python3 generate.py

One weight [256 out x 512 in] of seeded normal values, the 50 % smallest in magnitude set to 0 (a
magnitude-pruned layer), quantized to each type by gguf-py's quantizer (the reference quantizers of
ggml's quantize_row_*_ref): the symmetric types keep the pruned zeros, the affine ones (an offset per
block) decode most of them to small non-zeros.
"""
import json

import gguf
import numpy as np
from gguf import GGMLQuantizationType as T
from gguf import quants

TYPES = {"q4_0": T.Q4_0, "q4_1": T.Q4_1, "q5_0": T.Q5_0, "q5_1": T.Q5_1}


def main():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((256, 512)).astype(np.float32)
    w[np.abs(w) < np.median(np.abs(w))] = 0
    expected = {}
    for name, t in TYPES.items():
        q = quants.quantize(w, t)
        writer = gguf.GGUFWriter(f"pruned-{name}.gguf", "llama")
        writer.add_tensor("blk.0.ffn_down.weight", q, raw_shape=q.shape, raw_dtype=t)
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        d = quants.dequantize(q, t).astype(np.float32).reshape(-1)
        total = 0.0
        absolute = 0.0
        for x in d.tolist():
            total += x
            absolute += abs(x)
        expected[name] = {"nonZeros": int(np.count_nonzero(d)), "sum": total, "absSum": absolute}
    with open("expected.json", "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
