package dev.sparseprof.measure.gpu;

import dev.sparseprof.util.SparseprofException;

/**
 * A 2:4 operand in the layout {@code sp24_gemm_mma} reads (see {@code src/main/cuda/sp24_gemm.cu}):
 * {@code values} are the fp16 bits of the two kept values of every group of four, row-major
 * {@code rows x cols/2}; {@code metadata} holds 16 words per 16 x 32 tile. Built by
 * {@link Sparse24Packer}.
 *
 * @param rows logical rows, a multiple of 16
 * @param cols logical columns, a multiple of 32
 */
public record Sparse24Operand(int rows, int cols, short[] values, int[] metadata) {
    public Sparse24Operand {
        if (rows <= 0 || rows % Sparse24Packer.TILE_ROWS != 0 || cols <= 0 || cols % Sparse24Packer.TILE_COLS != 0) {
            throw new SparseprofException("2:4 operand: " + rows + " x " + cols + " must be a positive multiple of 16 x 32");
        }
        if (values.length != (long) rows * cols / 2) throw new SparseprofException("2:4 operand: values length " + values.length);
        if (metadata.length != (long) rows * cols / 32) throw new SparseprofException("2:4 operand: metadata length " + metadata.length);
    }

    /** Stored bytes: fp16 values plus 4 bits of metadata per group of four. */
    public long sizeBytes() {
        return 2L * values.length + 4L * metadata.length;
    }
}
