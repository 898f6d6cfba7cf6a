package dev.sparseprof.model;

import dev.sparseprof.util.MatrixView;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A GGUF Q8_0 or Q4_0 weight seen as the GEMM matrix A, dequantized row by row from the mapped
 * file (nothing is expanded in memory). A row is {@code cols / 32} blocks; each block is an fp16
 * scale d followed by its 32 quants (ggml's {@code block_q8_0} / {@code block_q4_0}):
 * Q8_0 gives {@code d·q} for int8 q; Q4_0 holds 16 bytes whose low nibbles are elements 0..15 and
 * high nibbles 16..31, each giving {@code d·(nibble - 8)}. A zero quant (q = 0, nibble 8) is written
 * as exactly 0.0f whatever d is (even inf or NaN), so zeros stay zeros.
 */
final class GgufBlockMatrix implements MatrixView {
    private static final int BLOCK = 32;
    private final MemorySegment data;
    private final GgufTypes type;
    private final int rows;
    private final int cols;
    private final long rowBytes;

    GgufBlockMatrix(MemorySegment data, GgufTypes type, int rows, int cols) {
        if (type != GgufTypes.Q8_0 && type != GgufTypes.Q4_0) throw new IllegalArgumentException(type + " is not decoded here");
        if (cols % BLOCK != 0) throw new IllegalArgumentException(cols + " columns are not whole blocks");
        this.rowBytes = (long) cols / BLOCK * type.blockBytes;
        if (data.byteSize() != rowBytes * rows) throw new IllegalArgumentException("data size");
        this.data = data;
        this.type = type;
        this.rows = rows;
        this.cols = cols;
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
        int blocks = cols / BLOCK;
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
}
