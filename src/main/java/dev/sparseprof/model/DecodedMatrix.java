package dev.sparseprof.model;

import dev.sparseprof.util.MatrixView;

/**
 * A weight view of a fixed shape whose rows a reader decodes on demand from what the file stores
 * (plain or strided tensors, block-quantized or packed codes, bitmask-compressed values, sparse
 * entries): the shape, its getters and the row-bound check every such view shares. A subclass checks
 * its tensors against the shape it passes here and decodes {@link #copyRow}.
 */
abstract class DecodedMatrix implements MatrixView {
    /** Rows of A: the output features. */
    final int rows;
    /** Columns of A: the reduction length K. */
    final int cols;

    DecodedMatrix(int rows, int cols) {
        this.rows = rows;
        this.cols = cols;
    }

    @Override
    public final int rows() {
        return rows;
    }

    @Override
    public final int cols() {
        return cols;
    }

    /** @throws IndexOutOfBoundsException unless {@code 0 <= row < rows} */
    final void checkRow(int row) {
        if (row < 0 || row >= rows) throw new IndexOutOfBoundsException("row " + row + " of " + rows);
    }
}
