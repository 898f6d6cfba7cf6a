#!/usr/bin/env python3
"""Writes the packed-int32 checkpoints PackedIntCheckpointTest reads, and expected.json.

Each weight is packed the way its library's own code packs it, transcribed to numpy (no torch here):
  gptq-act-order/  AutoGPTQ QuantLinear.pack (qlinear_cuda_old): qweight [in*bits/32, out] codes along the
                   input, low bits first; qzeros [groups, out*bits/32] along the output, holding zero - 1;
                   scales [groups, out] fp16; g_idx [in] (act-order: a permutation of the groups). 4 bits.
  gptq8/           the same at 8 bits, one group (group_size -1), no config.json: the bits come from qzeros.
  awq/             AutoAWQ WQLinear_GEMM.from_linear: qweight [in, out/8], codes along the output in the
                   order 0 2 4 6 1 3 5 7; qzeros [groups, out/8] alike; scales [groups, out] fp16.
  ct-sym/          compressed-tensors pack_to_int32 (pack-quantized, symmetric, group 32): weight_packed
                   [out, in/8] of q + 8 along the input; weight_scale [out, groups]; weight_shape.
  ct-asym8/        the same, 8 bits, asymmetric per channel: weight_zero_point packed along the output
                   (packed_dim=0), [ceil(out/4), 1].
  nvfp4/           compressed-tensors nvfp4-pack-quantized: weight_packed uint8 [out, in/2] of E2M1 codes
                   (pack_fp4_to_uint8: element 2j in the low nibble), weight_scale fp8 E4M3 [out, in/16],
                   weight_global_scale fp32 (an element is E2M1 * scale / global).
  mxfp4/           compressed-tensors mxfp4-pack-quantized: weight_scale uint8 E8M0 [out, in/32].
  nvfp4-modelopt/  NVIDIA ModelOpt's NVFP4: weight uint8, weight_scale fp8, weight_scale_2 fp32 (E2M1 * scale * scale_2).
  bnb-nf4/         bitsandbytes Linear4bit (its default backend's quantize_4bit, NF4, blocksize 64): weight uint8 [n/2, 1],
                   the first of a pair in the high nibble; weight.absmax fp32 per block, weight.quant_map, and the
                   JSON state weight.quant_state.bitsandbytes__nf4 (QuantState.as_dict(packed=True)).
  bnb-nf4-nested/  the same with double quantization: uint8 absmax codes, nested_absmax per 256 blocks, nested_quant_map
                   and nested_offset (an evenly spaced 256-entry map here, not bitsandbytes' dynamic one).
  bnb-int8/        bitsandbytes Linear8bitLt: int8 weight and SCB (each row's absmax): q * SCB / 127.
  aqlm-2x8/        the aqlm package's QuantizedLinear: two codebooks of 256 codewords of 1 x 8 (int8 codes, stored signed),
  aqlm-1x12/       one codebook of 4096 codewords of 2 x 4 (int16 codes); codebooks and scales fp16 (an element is
                   scale * the sum of its group's codewords; codeword 0 is zeros, named by half the groups).
  hqq4/            hqq's HQQLinear state as transformers saves it (4bit_u8, groups of 64 along rows of W.reshape(-1, 64),
  hqq3-axis0/      axis 1), and 3bit_32 with axis 0 (groups down the columns of W.reshape(64, -1), rows padded to ten);
  hqq4-float-view/ the 4-bit form with view_as_float: the packed bytes stored viewed as fp16 (half as many columns);
                   (q - zero) * scale with fp16 scale and zero, the strings and flags as uint8 tensors.
  mlx4/, mlx3/     mlx-lm's affine form (MLX's CPU quantize, transcribed): weight uint32 [out, in*bits/32], each row a
                   little-endian bit stream (3-bit codes cross words), scales and biases fp16 [out, in/group]:
                   scale * q + bias (config.json's "quantization": group 64 at 4 bits, 32 at 3).
Half of every weight is pruned to exact zeros before quantizing; the affine forms keep them at 0 because the
zero point is an integer code (FP4's codes 0 and 8 are zeros). expected.json gives, per layer, the non-zeros, the sum, the absolute sum
and three elements of the dequantized [out, in] weight, (code - zero) * scale in float32, with GPTQ's
stored zero plus one.  Run: python3 generate.py  (numpy only)
"""
import json, os, struct
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT, IN = 64, 128
rng = np.random.default_rng(11)


def write_safetensors(path, tensors):
    header, blobs, off = {}, [], 0
    for name, arr, dtype in tensors:
        b = np.ascontiguousarray(arr).tobytes()
        header[name] = {"dtype": dtype, "shape": list(arr.shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def pruned_weight():
    w = rng.standard_normal((OUT, IN)).astype(np.float32)
    w[rng.random(w.shape) < 0.5] = 0.0
    return w


def affine(w, bits, groups_of_col, n_groups):
    """Per (group, out) asymmetric min/max scales and integer zeros, as GPTQ's and AWQ's quantizers keep them."""
    maxq = 2 ** bits - 1
    scales = np.zeros((n_groups, OUT), np.float16)
    zeros = np.zeros((n_groups, OUT), np.int64)
    for g in range(n_groups):
        cols = w[:, groups_of_col == g]
        lo = np.minimum(cols.min(axis=1), 0)
        hi = np.maximum(cols.max(axis=1), 0)
        s = ((hi - lo) / maxq).astype(np.float16)
        s[s == 0] = 1
        scales[g] = s
        zeros[g] = np.round(-lo / s.astype(np.float32))
    q = np.zeros((IN, OUT), np.int64)  # intweight, transposed as the packers hold it
    for c in range(IN):
        g = groups_of_col[c]
        q[c] = np.clip(np.round(w[:, c] / scales[g].astype(np.float32) + zeros[g]), 0, maxq)
    return q, scales, zeros


def dequant(q, scales, zeros, groups_of_col):
    """[out, in] float32: (code - zero) * scale."""
    dense = np.zeros((OUT, IN), np.float32)
    for c in range(IN):
        g = groups_of_col[c]
        dense[:, c] = (q[c] - zeros[g]).astype(np.float32) * scales[g].astype(np.float32)
    return dense


def gptq(bits, group_size, act_order):
    w = pruned_weight()
    size = IN if group_size < 0 else group_size
    n_groups = IN // size
    g_idx = np.array([c // size for c in range(IN)], np.int32)
    if act_order:
        g_idx = g_idx[rng.permutation(IN)]
    q, scales, zeros = affine(w, bits, g_idx, n_groups)
    per = 32 // bits
    qweight = np.zeros((IN // per, OUT), np.uint32)
    for row in range(IN // per):  # QuantLinear.pack: qweight[row] |= intweight[j] << (bits * (j - i))
        for j in range(per):
            qweight[row] |= (q[row * per + j].astype(np.uint32) << np.uint32(bits * j))
    stored = (zeros - 1) & (2 ** bits - 1)  # zeros -= 1 before packing, as uint32
    qzeros = np.zeros((n_groups, OUT // per), np.uint32)
    for col in range(OUT // per):
        for j in range(per):
            qzeros[:, col] |= (stored[:, col * per + j].astype(np.uint32) << np.uint32(bits * j))
    tensors = [("qweight", qweight.view(np.int32), "I32"), ("qzeros", qzeros.view(np.int32), "I32"),
               ("scales", scales, "F16"), ("g_idx", g_idx, "I32")]
    return tensors, dequant(q, scales, zeros, g_idx)


def awq():
    w = pruned_weight()
    size = 32
    g_idx = np.array([c // size for c in range(IN)])
    q, scales, zeros = affine(w, 4, g_idx, IN // size)
    order = [0, 2, 4, 6, 1, 3, 5, 7]
    qweight = np.zeros((IN, OUT // 8), np.uint32)
    for col in range(OUT // 8):
        for i in range(8):
            qweight[:, col] |= q[:, col * 8 + order[i]].astype(np.uint32) << np.uint32(4 * i)
    qzeros = np.zeros((IN // size, OUT // 8), np.uint32)
    for col in range(OUT // 8):
        for i in range(8):
            qzeros[:, col] |= zeros[:, col * 8 + order[i]].astype(np.uint32) << np.uint32(4 * i)
    tensors = [("qweight", qweight.view(np.int32), "I32"), ("qzeros", qzeros.view(np.int32), "I32"), ("scales", scales, "F16")]
    return tensors, dequant(q, scales, zeros, g_idx)


def pack_to_int32(value, bits, packed_dim):
    """compressed-tensors' pack_to_int32 on signed codes."""
    u = (value + (1 << (bits - 1))).astype(np.uint32)
    if packed_dim == 0:
        u = u.T
    rows, cols = u.shape
    per = 32 // bits
    padded = -(-cols // per) * per
    u = np.pad(u, ((0, 0), (0, padded - cols)))
    shifts = (np.arange(per, dtype=np.uint32) * bits)
    packed = (u.reshape(rows, padded // per, per) << shifts).sum(axis=2, dtype=np.uint64).astype(np.uint32)
    if packed_dim == 1:
        return packed.view(np.int32)
    return np.ascontiguousarray(packed.T).view(np.int32)


def compressed_tensors(bits, group_size, symmetric):
    w = pruned_weight()
    size = IN if group_size < 0 else group_size
    n_groups = IN // size
    half = 2 ** (bits - 1)
    scale = np.zeros((OUT, n_groups), np.float32)
    zp = np.zeros((OUT, n_groups), np.int64)
    q = np.zeros((OUT, IN), np.int64)
    dense = np.zeros((OUT, IN), np.float32)
    for g in range(n_groups):
        cols = slice(g * size, (g + 1) * size)
        block = w[:, cols]
        if symmetric:
            s = np.abs(block).max(axis=1) / ((2 ** bits - 1) / 2)
            z = np.zeros(OUT, np.int64)
        else:
            lo, hi = np.minimum(block.min(axis=1), 0), np.maximum(block.max(axis=1), 0)
            s = (hi - lo) / (2 ** bits - 1)
            z = np.round(-half - lo / np.where(s == 0, 1, s)).astype(np.int64)  # signed zero point in [-half, half)
        s[s == 0] = 1
        scale[:, g] = s
        zp[:, g] = z
        q[:, cols] = np.clip(np.round(block / s[:, None]) + z[:, None], -half, half - 1)
        dense[:, cols] = (q[:, cols] - z[:, None]).astype(np.float32) * s[:, None].astype(np.float32)
    tensors = [("weight_packed", pack_to_int32(q, bits, 1), "I32"), ("weight_scale", scale, "F32"),
               ("weight_shape", np.array([OUT, IN], np.int64), "I64")]
    if not symmetric:
        tensors.insert(2, ("weight_zero_point", pack_to_int32(zp, bits, 0), "I32"))
    return tensors, dense


E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def e4m3_table():
    """The value of each fp8 E4M3 (fn) byte: sign, 4 exponent bits (bias 7), 3 mantissa bits; 0x7f/0xff NaN."""
    out = []
    for b in range(256):
        sign = -1.0 if b & 0x80 else 1.0
        e, m = (b >> 3) & 0xF, b & 7
        if e == 0xF and m == 7:
            out.append(float("nan"))
        elif e == 0:
            out.append(sign * m / 8 * 2.0 ** -6)
        else:
            out.append(sign * (1 + m / 8) * 2.0 ** (e - 7))
    return np.array(out)


E4M3 = e4m3_table()


def to_e4m3(x):
    """Nearest fp8 E4M3 byte of each positive x (the scales are positive)."""
    finite = np.where(np.isnan(E4M3), np.inf, E4M3)
    return np.abs(finite[None, :] - x.reshape(-1, 1)).argmin(axis=1).astype(np.uint8).reshape(x.shape)


def pack_fp4(w_over_scale):
    """compressed-tensors' pack_fp4_to_uint8: nearest E2M1 magnitude, sign in bit 3, element 2j in the low nibble of byte j."""
    mag = np.abs(np.abs(w_over_scale)[..., None] - np.array(E2M1)).argmin(axis=-1)
    codes = (mag + (np.signbit(w_over_scale).astype(np.int64) << 3)) * (mag != 0)  # a rounded zero is +0
    pairs = codes.reshape(OUT, IN // 2, 2)
    return (pairs[..., 0] | (pairs[..., 1] << 4)).astype(np.uint8), codes


def fp4_value(codes):
    return np.where(codes >= 8, -1.0, 1.0) * np.array(E2M1)[codes & 7]


def fp4(form):
    """NVFP4 (fp8 block scales of 16 and a per-tensor scale) or MXFP4 (E8M0 block scales of 32)."""
    w = pruned_weight()
    block = 32 if form == "mxfp4" else 16
    amax = np.abs(w).reshape(OUT, IN // block, block).max(axis=2)
    amax[amax == 0] = 1
    if form == "mxfp4":
        e = (np.floor(np.log2(amax / 6.0)) + 127).astype(np.int64) + 1  # a power of two at or above amax / 6
        scale_bytes = e.astype(np.uint8)
        block_scale = 2.0 ** (e - 127)
        tensor_scale = None
    else:
        tensor_scale = np.float32(np.abs(w).max() / (6 * 448))  # ModelOpt's weight_scale_2; compressed-tensors stores 1 / it
        scale_bytes = to_e4m3(amax / 6 / tensor_scale)
        block_scale = E4M3[scale_bytes] * tensor_scale
    full_scale = np.repeat(block_scale, block, axis=1)
    packed, codes = pack_fp4(w / full_scale)
    dense = (fp4_value(codes) * full_scale).astype(np.float32)
    if form == "mxfp4":
        return [("weight_packed", packed, "U8"), ("weight_scale", scale_bytes, "U8")], dense
    # dequantized in fp32 as the reader does: E2M1 times (the fp8 scale over or times the per-tensor scale)
    if form == "nvfp4":
        inv = np.float32(1 / tensor_scale)
        dense = (fp4_value(codes) * np.repeat(E4M3[scale_bytes].astype(np.float32) / inv, block, axis=1)).astype(np.float32)
        return [("weight_packed", packed, "U8"), ("weight_scale", scale_bytes, "F8_E4M3"), ("weight_global_scale", np.array([inv], np.float32), "F32")], dense
    dense = (fp4_value(codes) * np.repeat(E4M3[scale_bytes].astype(np.float32) * tensor_scale, block, axis=1)).astype(np.float32)
    return [("weight", packed, "U8"), ("weight_scale", scale_bytes, "F8_E4M3"), ("weight_scale_2", np.array(tensor_scale, np.float32), "F32")], dense


NF4 = [-1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453, -0.28444138169288635, -0.18477343022823334,
       -0.09105003625154495, 0.0, 0.07958029955625534, 0.16093020141124725, 0.24611230194568634, 0.33791524171829224,
       0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0]


def bnb4(nested):
    """bitsandbytes' default-backend quantize_4bit (NF4, blocksize 64) and QuantState.as_dict(packed=True)."""
    w = pruned_weight()
    blocksize = 64
    flat = w.reshape(-1)
    absmax = np.abs(flat.reshape(-1, blocksize)).max(axis=1).astype(np.float32)
    scaled = np.clip(flat.reshape(-1, blocksize) / np.maximum(absmax, 1e-38)[:, None], -1, 1).reshape(-1)
    code = np.array(NF4, np.float32)
    bounds = (code[:-1] + code[1:]) / 2
    q = np.searchsorted(bounds, scaled, side="left").astype(np.uint8)  # torch.bucketize(right=False)
    packed = ((q[0::2] << 4) | q[1::2]).astype(np.uint8).reshape(-1, 1)
    state = {"quant_type": "nf4", "blocksize": blocksize, "dtype": "bfloat16", "shape": [OUT, IN]}
    tensors = [("weight", packed, "U8"), ("weight.quant_map", code, "F32")]
    real_absmax = absmax
    if nested:
        offset = float(absmax.mean())
        nested_map = np.linspace(-1, 1, 256).astype(np.float32)
        centered = absmax - offset
        nested_blocks = -(-len(centered) // 256)
        nested_absmax = np.array([np.abs(centered[i * 256:(i + 1) * 256]).max() for i in range(nested_blocks)], np.float32)
        idx = np.abs(nested_map[None, :] - (centered / np.repeat(nested_absmax, 256)[:len(centered)])[:, None]).argmin(axis=1).astype(np.uint8)
        real_absmax = (nested_map[idx] * np.repeat(nested_absmax, 256)[:len(centered)] + np.float32(offset)).astype(np.float32)
        tensors += [("weight.absmax", idx, "U8"), ("weight.nested_absmax", nested_absmax, "F32"), ("weight.nested_quant_map", nested_map, "F32")]
        state.update({"nested_blocksize": 256, "nested_dtype": "float32", "nested_offset": offset})
    else:
        tensors.append(("weight.absmax", absmax, "F32"))
    tensors.append(("weight.quant_state.bitsandbytes__nf4", np.frombuffer(json.dumps(state).encode(), np.uint8), "U8"))
    dense = (code[q] * np.repeat(real_absmax, blocksize)).astype(np.float32).reshape(OUT, IN)
    return tensors, dense


def bnb8():
    """bitsandbytes' Linear8bitLt state: int8 weight (CB) and SCB, each row's absolute maximum; q * SCB / 127."""
    w = pruned_weight()
    scb = np.abs(w).max(axis=1).astype(np.float32)
    cb = np.round(w * 127 / scb[:, None]).astype(np.int8)
    dense = (cb.astype(np.float32) * (scb / np.float32(127))[:, None]).astype(np.float32)
    return [("weight", cb, "I8"), ("SCB", scb, "F32"), ("weight_format", np.array(0, np.uint8), "U8")], dense


def mlx(bits, group):
    """MLX's CPU quantize (mlx/backend/cpu/quantized.cpp `quantize`, transcribed: per group, the edge of larger
    magnitude on a code, scale = edge / q0, bias = edge; codes rounded with the float scale, scale and bias
    stored in the weights' 16-bit type), each row's codes a little-endian bit stream in uint32 words (code c
    at bits [c*bits, (c+1)*bits): MLX packs 8 3-bit codes in 3 bytes, little-endian); mx.dequantize reads
    scale * q + bias."""
    w = pruned_weight()
    n_bins = np.float32(2 ** bits - 1)
    groups = w.reshape(-1, group)
    q = np.zeros(groups.shape, np.int64)
    scale = np.zeros(len(groups), np.float16)
    bias = np.zeros(len(groups), np.float16)
    for i, g in enumerate(groups):
        w_max, w_min = np.float32(g.max()), np.float32(g.min())
        mask = abs(w_min) > abs(w_max)
        sc = np.float32(max((w_max - w_min) / n_bins, np.float32(1e-7)))
        sc = sc if mask else -sc
        edge = w_min if mask else w_max
        q0 = np.rint(edge / sc)
        b = np.float32(0)
        if q0 != 0:
            sc = np.float32(edge / q0)
            b = edge
        q[i] = np.clip(np.rint((g - b) / sc), 0, n_bins)
        scale[i], bias[i] = sc, b
    q = q.reshape(OUT, IN)
    scale, bias = scale.reshape(OUT, IN // group), bias.reshape(OUT, IN // group)
    words = IN * bits // 32
    packed = np.zeros((OUT, words), np.uint32)
    for r in range(OUT):
        stream = 0
        for c in range(IN):
            stream |= int(q[r, c]) << (c * bits)
        for k in range(words):
            packed[r, k] = (stream >> (32 * k)) & 0xFFFFFFFF
    s32 = np.repeat(scale.astype(np.float32), group, axis=1)
    b32 = np.repeat(bias.astype(np.float32), group, axis=1)
    dense = (s32 * q.astype(np.float32)).astype(np.float32) + b32
    return [("weight", packed, "U32"), ("scales", scale, "F16"), ("biases", bias, "F16")], dense.astype(np.float32)


def aqlm(books, bits, out_group, in_group):
    """The aqlm package's QuantizedLinear state: codes [out/out_group, in/in_group, books] in get_int_dtype(bits),
    written by pack_int_data (a code at or above 2**(bits-1) stored as code - 2**bits), codebooks fp16
    [books, 2**bits, out_group, in_group], scales fp16 [out/out_group, 1, 1, 1]; _dequantize_weight sums each
    group's codewords (embedding_bag, mode "sum") and multiplies by its row group's scale. Entry 0 of every
    codebook is the zero codeword, and half of the groups name it in every codebook: a pruned group is exact zeros."""
    entries = 2 ** bits
    books_f = rng.standard_normal((books, entries, out_group, in_group)).astype(np.float16)
    books_f[:, 0] = 0
    og, ig = OUT // out_group, IN // in_group
    codes = rng.integers(1, entries, size=(og, ig, books))
    codes[rng.random((og, ig)) < 0.5] = 0
    scales = (rng.random((og, 1, 1, 1)) + 0.5).astype(np.float16)
    dense = np.zeros((OUT, IN), np.float32)
    for o in range(og):
        for g in range(ig):
            block = np.zeros((out_group, in_group), np.float32)
            for m in range(books):
                block += books_f[m, codes[o, g, m]].astype(np.float32)
            dense[o * out_group:(o + 1) * out_group, g * in_group:(g + 1) * in_group] = block * np.float32(scales[o, 0, 0, 0])
    stored = codes.copy()
    stored[stored >= 2 ** (bits - 1)] -= entries
    dtype, label = (np.int8, "I8") if bits <= 8 else (np.int16, "I16")
    return [("codes", stored.astype(dtype), label), ("codebooks", books_f, "F16"), ("scales", scales, "F16")], dense


def hqq(bits, group, axis, view_as_float=False):
    """hqq's HQQLinear state as transformers saves it (Quantizer.quantize with optimize off, round_zero off, then
    HQQLinear.state_dict through encode_safetensor_type): the weight grouped (axis 1: W.reshape(-1, group), a group a
    row; axis 0: W.reshape(group, -1), a group a column), per group scale = (2**bits - 1) / (max - min) and
    zero = -min * scale, q = round(W * scale + zero) clamped, the scale then inverted; the grouped codes packed along
    their first dimension by hqq.core.bitpack (4bit_u8: the first half of the rows in the high nibble; 3bit_32: ten
    codes an int32 from bit 27 down, the rows padded to a multiple of ten); Quantizer.dequantize reads
    (q - zero) * scale reshaped to the weight's shape. Scale and zero fp16; strings and flags as uint8 tensors."""
    w = pruned_weight()
    grouped = w.reshape(-1, group) if axis == 1 else w.reshape(group, -1)
    mn = grouped.min(axis=axis, keepdims=True)
    mx = grouped.max(axis=axis, keepdims=True)
    max_v = np.float32(2 ** bits - 1)
    denom = mx - mn
    scale = max_v / denom
    scale = np.where(np.abs(denom) <= 1e-4, np.float32(1), scale).astype(np.float32)
    scale = np.minimum(scale, np.float32(2e4))
    zero = (-mn * scale).astype(np.float32)
    q = np.clip(np.rint(grouped * scale + zero), 0, max_v).astype(np.int64)
    inv = (np.float32(1) / scale).astype(np.float16)
    zero16 = zero.astype(np.float16)
    if bits == 4:
        step = len(q) // 2
        packed, packing, label = ((q[:step] << 4) | q[step:]).astype(np.uint8), "4bit_u8", "U8"
    else:
        rows = -(-len(q) // 10) * 10
        padded = np.zeros((rows, q.shape[1]), np.int64)
        padded[:len(q)] = q
        step = rows // 10
        acc = np.zeros((step, q.shape[1]), np.int64)
        for k in range(10):
            acc |= padded[k * step:(k + 1) * step] << (27 - 3 * k)
        packed, packing, label = acc.astype(np.int32), "3bit_32", "I32"
    dense = ((q.astype(np.float32) - zero16.astype(np.float32)) * inv.astype(np.float32)).reshape(OUT, IN)
    if view_as_float:  # Quantizer.quantize(view_as_float=True): the packed codes stored viewed as the compute dtype
        packed, label = packed.view(np.float16), "F16"

    def chars(text):
        return np.frombuffer(text.encode(), np.uint8).copy()
    state = [("W_q", packed, label), ("scale", inv, "F16"), ("zero", zero16, "F16"),
             ("nbits", np.array(bits, np.int32), "I32"), ("group_size", np.array(group, np.int32), "I32"),
             ("shape", np.array([OUT, IN], np.int64), "I64"), ("axis", np.array(axis, np.int32), "I32"),
             ("packing", chars(packing), "U8"), ("unpack_view_dtype", chars("torch.uint8" if bits == 4 else "torch.int32"), "U8"),
             ("view_as_float", np.array(int(view_as_float), np.uint8), "U8"), ("compute_dtype", chars("torch.float16"), "U8"),
             ("channel_wise", np.array(1, np.uint8), "U8"), ("optimize", np.array(0, np.uint8), "U8"),
             ("round_zero", np.array(0, np.uint8), "U8"), ("encoded_state_dict", np.array(1, np.uint8), "U8"),
             ("stores_quant_config", np.array(1, np.uint8), "U8")]
    return state, dense.astype(np.float32)


def config(quant):
    return {"model_type": "llama", "hidden_size": IN, "num_hidden_layers": 1, "num_attention_heads": 4, "intermediate_size": OUT,
            "quantization_config": quant}


CASES = {
    "gptq-act-order": (lambda: gptq(4, 32, True), config({"quant_method": "gptq", "bits": 4, "group_size": 32, "desc_act": True, "sym": False})),
    "gptq8": (lambda: gptq(8, -1, False), None),
    "awq": (awq, config({"quant_method": "awq", "bits": 4, "group_size": 32, "version": "gemm", "zero_point": True})),
    "ct-sym": (lambda: compressed_tensors(4, 32, True),
               config({"quant_method": "compressed-tensors", "format": "pack-quantized",
                       "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4, "symmetric": True, "strategy": "group", "group_size": 32}}}})),
    "ct-asym8": (lambda: compressed_tensors(8, -1, False), None),
    "nvfp4": (lambda: fp4("nvfp4"), None),
    "mxfp4": (lambda: fp4("mxfp4"), None),
    "nvfp4-modelopt": (lambda: fp4("nvfp4-modelopt"), None),
    "bnb-nf4": (lambda: bnb4(False), None),
    "bnb-nf4-nested": (lambda: bnb4(True), None),
    "bnb-int8": (bnb8, None),
    "mlx4": (lambda: mlx(4, 64), {"model_type": "llama", "hidden_size": IN, "num_hidden_layers": 1, "num_attention_heads": 4,
                                  "intermediate_size": OUT, "quantization": {"group_size": 64, "bits": 4}}),
    "mlx3": (lambda: mlx(3, 32), {"model_type": "llama", "hidden_size": IN, "num_hidden_layers": 1, "num_attention_heads": 4,
                                  "intermediate_size": OUT, "quantization": {"group_size": 32, "bits": 3}}),
    "aqlm-2x8": (lambda: aqlm(2, 8, 1, 8), config({"quant_method": "aqlm", "in_group_size": 8, "out_group_size": 1, "num_codebooks": 2,
                                                   "nbits_per_codebook": 8})),
    "aqlm-1x12": (lambda: aqlm(1, 12, 2, 4), config({"quant_method": "aqlm", "in_group_size": 4, "out_group_size": 2, "num_codebooks": 1,
                                                    "nbits_per_codebook": 12})),
    "hqq4": (lambda: hqq(4, 64, 1), config({"quant_method": "hqq", "quant_config": {"weight_quant_params": {"nbits": 4, "group_size": 64, "axis": 1}}})),
    "hqq3-axis0": (lambda: hqq(3, 64, 0), None),
    "hqq4-float-view": (lambda: hqq(4, 64, 1, True), None),
}

expected = {}
for name, (make, cfg) in CASES.items():
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)
    tensors, dense = make()
    prefix = "model.layers.0.mlp.up_proj"
    named = [(prefix + "." + n, a, d) for n, a, d in tensors]
    named.append(("model.layers.0.input_layernorm.weight", np.ones(IN, np.float16), "F16"))
    write_safetensors(os.path.join(folder, "model.safetensors"), named)
    if cfg:
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(cfg, f, indent=1)
    elif os.path.exists(os.path.join(folder, "config.json")):
        os.remove(os.path.join(folder, "config.json"))
    expected[name] = {"layer": prefix + ".weight", "rows": OUT, "cols": IN, "nonZeros": int(np.count_nonzero(dense)),
                      "sum": float(dense.sum(dtype=np.float64)), "absSum": float(np.abs(dense).sum(dtype=np.float64)),
                      "elements": [[r, c, float(dense[r, c])] for r, c in ((0, 0), (5, 77), (63, 127))]}
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
print(json.dumps({k: v["nonZeros"] for k, v in expected.items()}))
