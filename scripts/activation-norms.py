#!/usr/bin/env python3
"""Per-layer input-channel L2 norms ||X_j||_2 of an ONNX model's MatMul/Gemm layers, for
`sparseprof advise --activation-norms FILE` (the file format: docs/advise.md).

Every MatMul/Gemm whose weight is an initializer gets its activation input added as a graph output;
onnxruntime runs the calibration batches; per layer the squares of each of the K input channels
are summed over every token of every batch, and the square root written. Layer names follow
sparseprof's ONNX reader: the weight's name where it means something, else the node's name.

  pip install onnxruntime onnx numpy
  scripts/activation-norms.py MODEL.onnx --out norms.json [--ids IDS.npy] [--batches 8 --seq 128]

--ids: token ids (int64, shape [batches, seq]) of real calibration text, tokenized with the model's
own tokenizer (Wanda uses 128 sequences of C4). Without it, random ids in [1000, 30000) are used:
enough to try the pipeline, not calibration. Inputs named *attention_mask* get ones, *token_type*
zeros. Conv layers are not handled (their K is im2col's C*kh*kw); sparseprof then ranks them by magnitude.
"""
import argparse
import json
import sys

import numpy as np
import onnx
import onnxruntime as ort


def layer_name(weight, node):
    anonymous = weight == "" or weight.startswith("onnx::") or weight.isdigit()
    if not anonymous:
        return weight
    return node.name if node.name else "%s(%s)" % (node.op_type, node.output[0] if node.output else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--out", required=True)
    ap.add_argument("--ids", help="int64 .npy of token ids, [batches, seq]")
    ap.add_argument("--batches", type=int, default=8)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()

    m = onnx.load(a.model)
    inits = {t.name for t in m.graph.initializer}
    taps = {}  # activation tensor -> layer name
    for node in m.graph.node:
        if node.op_type == "MatMul" and len(node.input) == 2 and node.input[1] in inits and node.input[0] not in inits:
            taps.setdefault(node.input[0], []).append(layer_name(node.input[1], node))
        elif node.op_type == "Gemm" and len(node.input) >= 2 and node.input[1] in inits:
            if any(at.name == "transA" and at.i == 1 for at in node.attribute):
                continue  # A transposed: K runs along the rows of the input; not handled
            taps.setdefault(node.input[0], []).append(layer_name(node.input[1], node))
    if not taps:
        sys.exit("%s: no MatMul/Gemm layer with an initializer weight" % a.model)
    outputs = {o.name for o in m.graph.output}
    for name in taps:
        if name not in outputs:
            m.graph.output.append(onnx.helper.make_empty_tensor_value_info(name))
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])

    if a.ids:
        ids = np.load(a.ids).astype(np.int64)
    else:
        ids = np.random.default_rng(a.seed).integers(1000, 30000, size=(a.batches, a.seq), dtype=np.int64)
    sums = {}
    names = list(taps)
    for b in range(ids.shape[0]):
        feed = {}
        for i in sess.get_inputs():
            row = ids[b:b + 1]
            if "mask" in i.name:
                feed[i.name] = np.ones_like(row)
            elif "type" in i.name:
                feed[i.name] = np.zeros_like(row)
            else:
                feed[i.name] = row
        for name, x in zip(names, sess.run(names, feed)):
            x = np.asarray(x, dtype=np.float64).reshape(-1, np.asarray(x).shape[-1])
            sums[name] = sums.get(name, 0) + (x * x).sum(axis=0)
    layers = {}
    for name, layer_list in taps.items():
        norms = np.sqrt(sums[name]).tolist()
        for layer in layer_list:
            layers[layer] = norms
    with open(a.out, "w") as f:
        json.dump({"version": 1, "layers": layers}, f)
    print("%s: %d layers, %d calibration sequences of %d tokens" % (a.out, len(layers), ids.shape[0], ids.shape[1]))


if __name__ == "__main__":
    main()
