package dev.sparseprof.model;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A GGUF block-quantized weight (ggml's {@code block_*} types) seen as the GEMM matrix A,
 * dequantized row by row from the mapped file (nothing is expanded in memory), as ggml's
 * {@code dequantize_row_*} and gguf-py's {@code quants.dequantize} compute it, each product and sum
 * rounded to fp32. A row is whole blocks:
 * <ul>
 * <li>32 elements: Q8_0 (fp16 d, 32 int8 quants: {@code d·q}); Q4_0 (d, 16 bytes, low nibbles
 *     elements 0..15 and high 16..31: {@code d·(q - 8)}); Q4_1 (d and m, nibbles as Q4_0:
 *     {@code d·q + m}); Q5_0 and Q5_1 (as Q4_0 and Q4_1 with a fifth bit per element from a
 *     little-endian uint32: {@code d·(q - 16)}, {@code d·q + m}); MXFP4 (an E8M0 scale byte and 16
 *     bytes of E2M1 codes, {@link Mxfp4}; gpt-oss's experts);</li>
 * <li>256 elements: Q2_K and Q3_K (2-bit quants in 16 groups of 16, {@link #q2K}, {@link #q3K});
 *     Q4_K and Q5_K (8 sub-blocks of 32 with 6-bit scales and mins, {@link #affineK}); Q6_K (16
 *     groups of 16, {@link #q6K}); IQ4_XS ({@link #iq4xs}); the ternary TQ1_0 and TQ2_0
 *     ({@link #tq10}, {@link #tq20}).</li>
 * </ul>
 * IQ4_NL (32 elements, {@link #iq4nl}) and IQ4_XS map each nibble to one of 16 non-uniform levels,
 * none of them 0: their layers hold no zeros at all, whatever the pruning did.
 * Q8_0, Q4_0, Q5_0, Q3_K, Q6_K, TQ1_0, TQ2_0 and MXFP4 are symmetric: a zero quant is written as exactly 0.0f
 * whatever the scales are (even inf or NaN), so zeros stay zeros. Q4_1, Q5_1, Q2_K, Q4_K and Q5_K are
 * affine (an offset per block or sub-block): an element is zero only where its product equals the
 * offset in fp32. llama.cpp fits each block's offset to its values, so a pruned weight's zeros mostly
 * come back as small non-zeros: such a layer shows the sparsity its quantization kept, not the
 * pruning's. {@link #storedBitsPerWeight} is the type's block bytes over its elements.
 */
final class GgufBlockMatrix extends DecodedMatrix implements EncodedWeights {
    private static final int BLOCK = 32;
    private static final int SUPER_BLOCK = 256;
    private final MemorySegment data;
    private final GgufTypes type;
    private final long rowBytes;

    GgufBlockMatrix(MemorySegment data, GgufTypes type, int rows, int cols) {
        super(rows, cols);
        if (!type.decoded() || type.blockElements == 1) throw new IllegalArgumentException(type + " is not decoded here");
        if (cols % type.blockElements != 0) throw new IllegalArgumentException(cols + " columns are not whole blocks");
        this.rowBytes = (long) cols / type.blockElements * type.blockBytes;
        if (data.byteSize() != rowBytes * rows) throw new IllegalArgumentException("data size");
        this.data = data;
        this.type = type;
    }

    @Override
    public double storedBitsPerWeight() {
        return 8.0 * type.blockBytes / type.blockElements;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        long at = row * rowBytes;
        int per = type.blockElements;
        for (int b = 0; b < cols / per; b++, at += type.blockBytes) {
            int o = offset + b * per;
            switch (type) {
                case Q8_0 -> q80(at, dst, o);
                case Q4_0 -> q40(at, dst, o);
                case Q4_1 -> q41(at, dst, o);
                case Q5_0, Q5_1 -> q5(at, type == GgufTypes.Q5_1, dst, o);
                case MXFP4 -> mxfp4(at, dst, o);
                case Q2_K -> q2K(at, dst, o);
                case Q3_K -> q3K(at, dst, o);
                case Q4_K, Q5_K -> affineK(at, type == GgufTypes.Q5_K, dst, o);
                case Q6_K -> q6K(at, dst, o);
                case IQ4_NL -> iq4nl(at, dst, o);
                case IQ4_XS -> iq4xs(at, dst, o);
                case TQ1_0 -> tq10(at, dst, o);
                case TQ2_0 -> tq20(at, dst, o);
                default -> throw new IllegalStateException(type + " is not decoded here");
            }
        }
    }

    /**
     * IQ4_NL's and IQ4_XS's 16 non-uniform levels ({@code kvalues_iq4nl} in ggml, gguf-py's
     * {@code IQ4_NL.kvalues}). None is 0: a pruned zero comes back as {@code d} or {@code -10·d}.
     */
    private static final byte[] IQ4_LEVELS = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

    /** One {@code block_iq4_nl}: fp16 d, 16 bytes, low nibbles elements 0..15, high 16..31; {@code d·level}. */
    private void iq4nl(long at, float[] dst, int o) {
        iq4Levels(at + 2, Float.float16ToFloat(data.get(LittleEndian.I16, at)), dst, o);
    }

    /** The 16 bytes at {@code qs} as IQ4_NL lays them out, low nibbles elements 0..15 and high 16..31: {@code scale·level}. */
    private void iq4Levels(long qs, float scale, float[] dst, int o) {
        for (int j = 0; j < BLOCK / 2; j++) {
            int packed = data.get(ValueLayout.JAVA_BYTE, qs + j) & 0xff;
            dst[o + j] = scale * IQ4_LEVELS[packed & 0xf];
            dst[o + j + BLOCK / 2] = scale * IQ4_LEVELS[packed >>> 4];
        }
    }

    /**
     * One {@code block_iq4_xs}: fp16 d, a uint16 of the 8 sub-blocks' high scale bits (2 each), 4
     * bytes of their low scale nibbles, then 8 x 16 bytes of nibbles as IQ4_NL; sub-block i's
     * element is {@code (d·(scale_i - 32))·level}, {@code scale_i} 6 bits.
     */
    private void iq4xs(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
        int high = data.get(LittleEndian.I16, at + 2) & 0xffff;
        for (int sub = 0; sub < SUPER_BLOCK / BLOCK; sub++) {
            int low = (data.get(ValueLayout.JAVA_BYTE, at + 4 + sub / 2) & 0xff) >>> (4 * (sub % 2)) & 0xf;
            float dl = d * ((low | ((high >>> (2 * sub)) & 3) << 4) - 32);
            iq4Levels(at + 8 + (long) sub * (BLOCK / 2), dl, dst, o + sub * BLOCK);
        }
    }

    /** Powers of three that shift a base-3 digit to the top of a byte (TQ1_0). */
    private static final int[] POW3 = {1, 3, 9, 27, 81};

    /**
     * One {@code block_tq1_0} (ternary, BitNet b1.58): 48 bytes of five trits each, 4 bytes of four,
     * then fp16 d. Trit {@code j} of byte {@code q} is {@code ((q·3^j mod 256)·3 >> 8) - 1}; bytes 0..31
     * give elements {@code 32j + b}, bytes 32..47 elements {@code 160 + 16j + b}, the last 4
     * elements {@code 240 + 4j + b}. {@code d·trit}, a 0 trit exactly 0.
     */
    private void tq10(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at + 52));
        trits(at, 32, 5, 0, d, dst, o);
        trits(at + 32, 16, 5, 160, d, dst, o);
        trits(at + 48, 4, 4, 240, d, dst, o);
    }

    /** {@code count} bytes of {@code digits} trits each, digit j of byte b to element {@code first + j·count + b}. */
    private void trits(long at, int count, int digits, int first, float d, float[] dst, int o) {
        for (int b = 0; b < count; b++) {
            int q = data.get(ValueLayout.JAVA_BYTE, at + b) & 0xff;
            for (int j = 0; j < digits; j++) {
                int trit = (((q * POW3[j]) & 0xff) * 3 >>> 8) - 1;
                dst[o + first + j * count + b] = trit == 0 ? 0.0f : d * trit;
            }
        }
    }

    /** One {@code block_tq2_0}: 64 bytes of 2-bit codes, then fp16 d; element {@code 128c + 32j + b} is bits {@code 2j} of byte {@code 32c + b}, {@code d·(code - 1)}. */
    private void tq20(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at + 64));
        for (int c = 0; c < 2; c++) {
            for (int b = 0; b < 32; b++) {
                int q = data.get(ValueLayout.JAVA_BYTE, at + 32 * c + b) & 0xff;
                for (int j = 0; j < 4; j++) {
                    int v = ((q >>> (2 * j)) & 3) - 1;
                    dst[o + 128 * c + 32 * j + b] = v == 0 ? 0.0f : d * v;
                }
            }
        }
    }

    /** One {@code block_q8_0}: fp16 d, 32 int8 quants; {@code d·q}. */
    private void q80(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
        for (int j = 0; j < BLOCK; j++) {
            int q = data.get(ValueLayout.JAVA_BYTE, at + 2 + j);
            dst[o + j] = q == 0 ? 0.0f : d * q;
        }
    }

    /** One {@code block_q4_0}: fp16 d, 16 bytes, low nibbles elements 0..15, high 16..31; {@code d·(nibble - 8)}. */
    private void q40(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
        for (int j = 0; j < BLOCK / 2; j++) {
            int packed = data.get(ValueLayout.JAVA_BYTE, at + 2 + j) & 0xff;
            int lo = (packed & 0xf) - 8;
            int hi = (packed >>> 4) - 8;
            dst[o + j] = lo == 0 ? 0.0f : d * lo;
            dst[o + j + BLOCK / 2] = hi == 0 ? 0.0f : d * hi;
        }
    }

    /** One {@code block_q4_1}: fp16 d and m, 16 bytes of nibbles as Q4_0; {@code d·q + m} (affine). */
    private void q41(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
        float m = Float.float16ToFloat(data.get(LittleEndian.I16, at + 2));
        for (int j = 0; j < BLOCK / 2; j++) {
            int packed = data.get(ValueLayout.JAVA_BYTE, at + 4 + j) & 0xff;
            dst[o + j] = d * (packed & 0xf) + m;
            dst[o + j + BLOCK / 2] = d * (packed >>> 4) + m;
        }
    }

    /**
     * One {@code block_q5_0} (fp16 d, then a little-endian uint32 of fifth bits, element j's bit j,
     * then 16 bytes of nibbles as Q4_0; {@code d·(q - 16)}, a zero quant exactly 0) or
     * {@code block_q5_1} (fp16 d and m first; {@code d·q + m}, affine).
     */
    private void q5(long at, boolean affine, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
        float m = affine ? Float.float16ToFloat(data.get(LittleEndian.I16, at + 2)) : 0;
        long qhAt = at + (affine ? 4 : 2);
        int qh = data.get(LittleEndian.I32, qhAt);
        for (int j = 0; j < BLOCK / 2; j++) {
            int packed = data.get(ValueLayout.JAVA_BYTE, qhAt + 4 + j) & 0xff;
            int lo = (packed & 0xf) | ((qh >>> j) & 1) << 4;
            int hi = (packed >>> 4) | ((qh >>> (j + BLOCK / 2)) & 1) << 4;
            if (affine) {
                dst[o + j] = d * lo + m;
                dst[o + j + BLOCK / 2] = d * hi + m;
            } else {
                dst[o + j] = lo == 16 ? 0.0f : d * (lo - 16);
                dst[o + j + BLOCK / 2] = hi == 16 ? 0.0f : d * (hi - 16);
            }
        }
    }

    /**
     * One {@code block_q2_K}: 16 bytes of group scales (low nibble scale, high nibble min, 16 groups
     * of 16), 64 bytes of 2-bit quants, fp16 d and dmin. Element {@code e = 128·c + 32·s + i} (c < 2,
     * s < 4, i < 32) is bits {@code 2s..2s+1} of {@code qs[32·c + i]}, in group {@code e / 16}:
     * {@code (d·sc)·q - dmin·m}, affine.
     */
    private void q2K(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at + 80));
        float dmin = Float.float16ToFloat(data.get(LittleEndian.I16, at + 82));
        for (int g = 0; g < SUPER_BLOCK / 16; g++) {
            int sc = data.get(ValueLayout.JAVA_BYTE, at + g) & 0xff;
            float scale = d * (sc & 0xf);
            float min = dmin * (sc >>> 4);
            for (int e = 16 * g; e < 16 * g + 16; e++) dst[o + e] = scale * twoBits(at + 16, e) - min;
        }
    }

    /**
     * One {@code block_q3_K}: 32 bytes {@code hmask}, 64 bytes of 2-bit quants, 12 bytes of 6-bit
     * group scales (16 groups of 16: the low nibbles of bytes 0..7, then their high nibbles, under 2
     * bits from bytes 8..11), fp16 d. Element {@code e} takes its low bits as Q2_K lays them out and
     * bit {@code e / 32} of {@code hmask[e % 32]}: {@code q = low - 4} where that bit is 0, and is
     * {@code d·(scale - 32)·q}, a zero quant exactly 0.
     */
    private void q3K(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at + 108));
        for (int g = 0; g < SUPER_BLOCK / 16; g++) {
            int lowScale = (data.get(ValueLayout.JAVA_BYTE, at + 96 + g % 8) >>> (g < 8 ? 0 : 4)) & 0xf;
            int highScale = (data.get(ValueLayout.JAVA_BYTE, at + 104 + g % 4) >>> (2 * (g / 4))) & 3;
            float scale = d * ((lowScale | highScale << 4) - 32);
            for (int e = 16 * g; e < 16 * g + 16; e++) {
                int high = (data.get(ValueLayout.JAVA_BYTE, at + e % 32) >>> (e / 32)) & 1;
                int q = twoBits(at + 32, e) - (high == 0 ? 4 : 0);
                dst[o + e] = q == 0 ? 0.0f : scale * q;
            }
        }
    }

    /** Element {@code e}'s 2-bit quant of the 64 bytes at {@code qs} (Q2_K, Q3_K): bits {@code 2s..2s+1} of {@code qs[32·c + i]}, {@code e = 128·c + 32·s + i}. */
    private int twoBits(long qs, int e) {
        return (data.get(ValueLayout.JAVA_BYTE, qs + 32 * (e / 128) + e % 32) >>> (2 * ((e / 32) % 4))) & 3;
    }

    /**
     * One {@code block_mxfp4} at {@code at}: the E8M0 scale byte, then 16 bytes whose low nibbles are
     * elements 0..15 and high nibbles 16..31 ({@link Mxfp4}).
     */
    private void mxfp4(long at, float[] dst, int o) {
        int e = data.get(ValueLayout.JAVA_BYTE, at) & 0xff;
        for (int j = 0; j < BLOCK / 2; j++) {
            int packed = data.get(ValueLayout.JAVA_BYTE, at + 1 + j) & 0xff;
            dst[o + j] = Mxfp4.value(packed & 0xf, e);
            dst[o + j + BLOCK / 2] = Mxfp4.value(packed >>> 4, e);
        }
    }

    /**
     * One {@code block_q4_K} or {@code block_q5_K} at {@code at}: fp16 d and dmin, 12 bytes of
     * packed 6-bit scales and mins ({@link #scaleOrMin}), for Q5_K 32 bytes {@code qh} whose bit s of
     * byte i is the fifth bit of sub-block s's element i, then 128 bytes {@code qs}: sub-block s's
     * element i is nibble {@code s & 1} (low first) of {@code qs[32·(s / 2) + i]}. Element
     * {@code 32·s + i} is {@code (d·sc_s)·q - dmin·m_s}, in fp32 step by step.
     */
    private void affineK(long at, boolean fifthBit, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
        float dmin = Float.float16ToFloat(data.get(LittleEndian.I16, at + 2));
        long scales = at + 4;
        long qh = at + 16;
        long qs = fifthBit ? at + 48 : at + 16;
        for (int s = 0; s < 8; s++) {
            float scale = d * scaleOrMin(scales, s, false);
            float min = dmin * scaleOrMin(scales, s, true);
            for (int i = 0; i < 32; i++) {
                int q = (data.get(ValueLayout.JAVA_BYTE, qs + 32 * (s / 2) + i) >>> (4 * (s & 1))) & 0xf;
                if (fifthBit) q |= ((data.get(ValueLayout.JAVA_BYTE, qh + i) >>> s) & 1) << 4;
                dst[o + 32 * s + i] = scale * q - min;
            }
        }
    }

    /**
     * Sub-block {@code s}'s 6-bit scale (or min) from the 12 packed bytes at {@code at} (ggml's
     * {@code get_scale_min_k4}): for s < 4 the low 6 bits of byte s (min: byte s + 4); for s >= 4 the
     * low (min: high) nibble of byte s + 4 under the top two bits of byte s - 4 (min: byte s).
     */
    private int scaleOrMin(long at, int s, boolean min) {
        if (s < 4) return data.get(ValueLayout.JAVA_BYTE, at + s + (min ? 4 : 0)) & 0x3f;
        int packed = data.get(ValueLayout.JAVA_BYTE, at + s + 4) & 0xff;
        int top = (data.get(ValueLayout.JAVA_BYTE, at + s - (min ? 0 : 4)) & 0xff) >>> 6;
        return (min ? packed >>> 4 : packed & 0xf) | top << 4;
    }

    /**
     * One {@code block_q6_K} at {@code at}: {@code ql[128]}, {@code qh[64]}, {@code scales[16]}, fp16
     * {@code d}. Each half of 128 elements reads 64 bytes of ql, 32 of qh and 8 scales; within it,
     * element {@code l + 32·j} (l < 32, j < 4) takes the low (j even) or high (j odd) nibble of
     * {@code ql[l + 32·(j & 1)]}, bits {@code 2j..2j+1} of {@code qh[l]} above them, and scale
     * {@code l / 16 + 2j}.
     */
    private void q6K(long at, float[] dst, int o) {
        float d = Float.float16ToFloat(data.get(LittleEndian.I16, at + 208));
        for (int half = 0; half < 2; half++) {
            long ql = at + 64L * half;
            long qh = at + 128 + 32L * half;
            long sc = at + 192 + 8L * half;
            int base = o + 128 * half;
            for (int l = 0; l < 32; l++) {
                int high = data.get(ValueLayout.JAVA_BYTE, qh + l) & 0xff;
                for (int j = 0; j < 4; j++) {
                    int low = data.get(ValueLayout.JAVA_BYTE, ql + l + 32 * (j & 1)) & 0xff;
                    int q = ((j < 2 ? low & 0xf : low >>> 4) | ((high >>> (2 * j)) & 3) << 4) - 32;
                    int scale = data.get(ValueLayout.JAVA_BYTE, sc + l / 16 + 2 * j);
                    dst[base + l + 32 * j] = q == 0 ? 0.0f : d * scale * q;
                }
            }
        }
    }
}
