#!/usr/bin/env python3
"""Writes a LLaMA-2-7B-shaped checkpoint with random weights (numpy only; run by gen-llama-checkpoint.sh).

Shapes are those of Hugging Face's LlamaForCausalLM for meta-llama/Llama-2-7b-hf (its config.json:
hidden_size 4096, intermediate_size 11008, num_hidden_layers 32, num_attention_heads 32,
num_key_value_heads 32, vocab_size 32000), with its parameter names:
  model.embed_tokens.weight [vocab, hidden], lm_head.weight [vocab, hidden], model.norm.weight [hidden],
  per block i: model.layers.i.self_attn.{q,k,v,o}_proj.weight [hidden, hidden] (k/v: [kv_heads*head_dim, hidden]),
  model.layers.i.mlp.{gate,up}_proj.weight [intermediate, hidden], model.layers.i.mlp.down_proj.weight
  [hidden, intermediate], model.layers.i.{input,post_attention}_layernorm.weight [hidden].

Weights are random non-zero fp16/bf16 numbers made from random bits (random sign and mantissa, an
exponent for magnitudes 2^-7 .. 2^-1), no float arithmetic, so that 13 GB take seconds per GB. The
sparsity is applied to the block linears only (what Wanda and SparseGPT prune): "dense" keeps every
weight, "50" zeroes each weight with probability 1/2, "2:4" zeroes two random weights of every
group of four along a row. Embeddings and lm_head stay dense; norms are 1.0.

Layout "single" writes OUT as one .safetensors file; "sharded" writes OUT as a folder like
save_pretrained: model-0000k-of-0000n.safetensors shards of at most --max-shard-gb, a
model.safetensors.index.json ({"metadata": {"total_size"}, "weight_map": name -> shard}) and config.json.
"""
import argparse
import json
import os
import struct
import sys

import numpy as np


def tensors(a):
    """(name, shape, kind) in the order save_pretrained writes them; kind: embed | linear | norm."""
    h, i, v = a.hidden, a.intermediate, a.vocab
    kv = a.kv_heads * (h // a.heads)
    out = [("model.embed_tokens.weight", (v, h), "embed")]
    for b in range(a.blocks):
        p = f"model.layers.{b}."
        out += [(p + "self_attn.q_proj.weight", (h, h), "linear"),
                (p + "self_attn.k_proj.weight", (kv, h), "linear"),
                (p + "self_attn.v_proj.weight", (kv, h), "linear"),
                (p + "self_attn.o_proj.weight", (h, h), "linear"),
                (p + "mlp.gate_proj.weight", (i, h), "linear"),
                (p + "mlp.up_proj.weight", (i, h), "linear"),
                (p + "mlp.down_proj.weight", (h, i), "linear"),
                (p + "input_layernorm.weight", (h,), "norm"),
                (p + "post_attention_layernorm.weight", (h,), "norm")]
    out += [("model.norm.weight", (h,), "norm"), ("lm_head.weight", (v, h), "embed")]
    return out


# the six ways to keep two of four
TWO_OF_FOUR = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]], dtype=bool)


def random_bits(rng, n, dtype):
    raw = np.frombuffer(rng.bytes(2 * n), dtype=np.uint16)
    exps = rng.integers(0, 7, size=n, dtype=np.uint16)
    if dtype == "fp16":  # exponent field 8..14: 2^-7 .. 2^-1
        return (raw & np.uint16(0x83FF)) | ((exps + np.uint16(8)) << np.uint16(10))
    return (raw & np.uint16(0x807F)) | ((exps + np.uint16(120)) << np.uint16(7))  # bf16, exponent 120..126


def one_bits(dtype):
    return np.uint16(0x3C00 if dtype == "fp16" else 0x3F80)


def write_tensor(f, rng, shape, kind, a):
    if kind == "norm":
        np.full(shape, one_bits(a.dtype), dtype=np.uint16).tofile(f)
        return
    rows, cols = shape
    step = max(1, (1 << 24) // cols)  # about 32 MiB of uint16 per chunk
    for r0 in range(0, rows, step):
        n = min(step, rows - r0) * cols
        bits = random_bits(rng, n, a.dtype)
        if kind == "linear" and a.sparsity == "50":
            keep = np.frombuffer(rng.bytes((n + 7) // 8), dtype=np.uint8)
            bits[~np.unpackbits(keep, count=n).astype(bool)] = 0
        elif kind == "linear" and a.sparsity == "2:4":
            bits[~TWO_OF_FOUR[rng.integers(0, 6, size=n // 4)].reshape(-1)] = 0
        bits.tofile(f)


def nbytes(shape):
    n = 2
    for d in shape:
        n *= d
    return n


def write_file(path, items, rng, a):
    st = "F16" if a.dtype == "fp16" else "BF16"
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape, _ in items:
        header[name] = {"dtype": st, "shape": list(shape), "data_offsets": [offset, offset + nbytes(shape)]}
        offset += nbytes(shape)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    tmp = path + ".part"
    with open(tmp, "wb", buffering=1 << 22) as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for i, (name, shape, kind) in enumerate(items):
            write_tensor(f, rng, shape, kind, a)
            if sys.stderr.isatty():
                print(f"\r{os.path.basename(path)}: {i + 1}/{len(items)} tensors", end="", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    os.replace(tmp, path)
    return offset


def config(a):
    return {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": a.hidden,
            "intermediate_size": a.intermediate, "num_hidden_layers": a.blocks, "num_attention_heads": a.heads,
            "num_key_value_heads": a.kv_heads, "vocab_size": a.vocab, "max_position_embeddings": 4096,
            "rms_norm_eps": 1e-5, "hidden_act": "silu", "tie_word_embeddings": False,
            "torch_dtype": "float16" if a.dtype == "fp16" else "bfloat16"}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out", help="a .safetensors file (single) or a folder (sharded)")
    p.add_argument("--blocks", type=int, default=32)
    p.add_argument("--dtype", choices=["fp16", "bf16"], default="bf16")
    p.add_argument("--sparsity", choices=["dense", "50", "2:4"], default="dense")
    p.add_argument("--layout", choices=["single", "sharded"], default="sharded")
    p.add_argument("--max-shard-gb", type=float, default=5.0, help="shard size cap (save_pretrained's default 5GB)")
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--intermediate", type=int, default=11008)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=32)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args()
    if a.hidden % a.heads or a.heads % a.kv_heads or (a.sparsity == "2:4" and (a.hidden % 4 or a.intermediate % 4)):
        p.error("hidden must divide by heads, heads by kv-heads, and 2:4 needs widths that divide by 4")
    rng = np.random.default_rng(a.seed)
    items = tensors(a)
    if a.layout == "single":
        total = write_file(a.out, items, rng, a)
        print(f"wrote {a.out}: {len(items)} tensors, {total / 1e9:.2f} GB, {a.dtype}, {a.sparsity}")
        return
    os.makedirs(a.out, exist_ok=True)
    cap, shards, cur, size = a.max_shard_gb * 1e9, [], [], 0
    for it in items:
        if cur and size + nbytes(it[1]) > cap:
            shards.append(cur)
            cur, size = [], 0
        cur.append(it)
        size += nbytes(it[1])
    shards.append(cur)
    weight_map, total = {}, 0
    for k, shard in enumerate(shards):
        name = f"model-{k + 1:05d}-of-{len(shards):05d}.safetensors"
        total += write_file(os.path.join(a.out, name), shard, rng, a)
        for n, _, _ in shard:
            weight_map[n] = name
    with open(os.path.join(a.out, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config(a), f, indent=2)
    print(f"wrote {a.out}/: {len(shards)} shards, {len(items)} tensors, {total / 1e9:.2f} GB, {a.dtype}, {a.sparsity}")


if __name__ == "__main__":
    main()
