package dev.sparseprof.model;

import dev.sparseprof.util.MatrixView;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A GGUF Q8_0, Q4_0, Q4_K, Q5_K, Q6_K or MXFP4 weight seen as the GEMM matrix A, dequantized row by row from the
 * mapped file (nothing is expanded in memory). A row is whole blocks (ggml's {@code block_q8_0},
 * {@code block_q4_0}, {@code block_q4_K}, {@code block_q5_K}, {@code block_q6_K}, {@code block_mxfp4}):
 * <ul>
 * <li>Q8_0, 32 elements: an fp16 scale d and 32 int8 quants, {@code d·q};</li>
 * <li>Q4_0, 32 elements: d and 16 bytes whose low nibbles are elements 0..15 and high nibbles
 *     16..31, {@code d·(nibble - 8)};</li>
 * <li>Q4_K, 256 elements in 8 sub-blocks of 32: fp16 d and dmin, 12 bytes of 6-bit sub-block scales
 *     and mins, 128 bytes of nibbles; {@code d·sc·q - dmin·m} (affine: {@link #q4K});</li>
 * <li>Q5_K, the same with 32 bytes of fifth bits between the scales and the nibbles ({@link #q5K});</li>
 * <li>Q6_K, 256 elements in 16 groups of 16: 128 bytes of low 4 bits, 64 bytes of high 2 bits, 16
 *     int8 group scales, then the fp16 d; {@code d·scale·(q - 32)}, laid out per half of 128 as
 *     ggml's {@code dequantize_row_q6_K} reads it;</li>
 * <li>MXFP4, 32 elements: an E8M0 scale byte and 16 bytes of E2M1 codes, low nibbles 0..15 and high
 *     nibbles 16..31 ({@link Mxfp4}; gpt-oss's experts).</li>
 * </ul>
 * Q8_0, Q4_0, Q6_K and MXFP4 are symmetric: a zero quant (q = 0, nibble 8, 6-bit 32, E2M1 ±0) is
 * written as exactly 0.0f whatever the scales are (even inf or NaN), so zeros stay zeros. Q4_K and
 * Q5_K are affine, with a min per sub-block: an element is zero where {@code d·sc·q} equals
 * {@code dmin·m} in fp32, each product and the difference rounded to fp32 as ggml's
 * {@code dequantize_row_q4_K} and gguf-py compute them. llama.cpp fits each sub-block's min to its
 * values, so a pruned weight's zeros mostly come back as small non-zeros: such a layer shows the
 * sparsity its quantization kept, not the pruning's.
 */
final class GgufBlockMatrix implements MatrixView, EncodedWeights {
    private static final int BLOCK = 32;
    private static final int SUPER_BLOCK = 256;
    private final MemorySegment data;
    private final GgufTypes type;
    private final int rows;
    private final int cols;
    private final long rowBytes;

    GgufBlockMatrix(MemorySegment data, GgufTypes type, int rows, int cols) {
        if (!type.decoded() || type.blockElements == 1) throw new IllegalArgumentException(type + " is not decoded here");
        if (cols % type.blockElements != 0) throw new IllegalArgumentException(cols + " columns are not whole blocks");
        this.rowBytes = (long) cols / type.blockElements * type.blockBytes;
        if (data.byteSize() != rowBytes * rows) throw new IllegalArgumentException("data size");
        this.data = data;
        this.type = type;
        this.rows = rows;
        this.cols = cols;
    }

    @Override
    public double storedBitsPerWeight() {
        return 8.0 * type.blockBytes / type.blockElements;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        if (row < 0 || row >= rows) throw new IndexOutOfBoundsException("row " + row + " of " + rows);
        long at = row * rowBytes;
        if (type == GgufTypes.Q6_K || type == GgufTypes.Q4_K || type == GgufTypes.Q5_K) {
            for (int b = 0; b < cols / SUPER_BLOCK; b++, at += type.blockBytes) {
                int o = offset + b * SUPER_BLOCK;
                if (type == GgufTypes.Q6_K) q6K(at, dst, o);
                else affineK(at, type == GgufTypes.Q5_K, dst, o);
            }
            return;
        }
        int blocks = cols / BLOCK;
        if (type == GgufTypes.MXFP4) {
            for (int b = 0; b < blocks; b++, at += type.blockBytes) mxfp4(at, dst, offset + b * BLOCK);
            return;
        }
        for (int b = 0; b < blocks; b++, at += type.blockBytes) {
            float d = Float.float16ToFloat(data.get(LittleEndian.I16, at));
            int o = offset + b * BLOCK;
            if (type == GgufTypes.Q8_0) {
                for (int j = 0; j < BLOCK; j++) {
                    int q = data.get(ValueLayout.JAVA_BYTE, at + 2 + j);
                    dst[o + j] = q == 0 ? 0.0f : d * q;
                }
            } else {
                for (int j = 0; j < BLOCK / 2; j++) {
                    int packed = data.get(ValueLayout.JAVA_BYTE, at + 2 + j) & 0xff;
                    int lo = (packed & 0xf) - 8;
                    int hi = (packed >>> 4) - 8;
                    dst[o + j] = lo == 0 ? 0.0f : d * lo;
                    dst[o + j + BLOCK / 2] = hi == 0 ? 0.0f : d * hi;
                }
            }
        }
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
