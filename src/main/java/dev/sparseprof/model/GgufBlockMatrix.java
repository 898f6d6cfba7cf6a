package dev.sparseprof.model;

import dev.sparseprof.util.MatrixView;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A GGUF Q8_0, Q4_0, Q6_K or MXFP4 weight seen as the GEMM matrix A, dequantized row by row from the
 * mapped file (nothing is expanded in memory). A row is whole blocks (ggml's {@code block_q8_0},
 * {@code block_q4_0}, {@code block_q6_K}, {@code block_mxfp4}):
 * <ul>
 * <li>Q8_0, 32 elements: an fp16 scale d and 32 int8 quants, {@code d·q};</li>
 * <li>Q4_0, 32 elements: d and 16 bytes whose low nibbles are elements 0..15 and high nibbles
 *     16..31, {@code d·(nibble - 8)};</li>
 * <li>Q6_K, 256 elements in 16 groups of 16: 128 bytes of low 4 bits, 64 bytes of high 2 bits, 16
 *     int8 group scales, then the fp16 d; {@code d·scale·(q - 32)}, laid out per half of 128 as
 *     ggml's {@code dequantize_row_q6_K} reads it;</li>
 * <li>MXFP4, 32 elements: an E8M0 scale byte and 16 bytes of E2M1 codes, low nibbles 0..15 and high
 *     nibbles 16..31 ({@link Mxfp4}; gpt-oss's experts).</li>
 * </ul>
 * The four are symmetric: a zero quant (q = 0, nibble 8, 6-bit 32, E2M1 ±0) is written as exactly 0.0f
 * whatever the scales are (even inf or NaN), so zeros stay zeros. (The K-quants with a per-block
 * min, Q4_K and Q5_K, have no exact zero and are not read.)
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
        if (type == GgufTypes.Q6_K) {
            for (int b = 0; b < cols / SUPER_BLOCK; b++, at += type.blockBytes) q6K(at, dst, offset + b * SUPER_BLOCK);
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
