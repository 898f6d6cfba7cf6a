package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.EllMatrix;
import dev.sparseprof.trace.ArrayRole;
import java.util.Map;

/**
 * What the row-split kernels read: a format whose row {@code r} is the contiguous slice
 * {@code [rowStarts[r], rowStarts[r+1])} of a values and a column-index array. CSR is one (its
 * own arrays, not copied); ELL is another (slices of width W, padding included: the kernel
 * multiplies the padding's zeros, which is ELL's cost, and computes {@code r*W} instead of reading
 * row pointers).
 *
 * <p>Invariant: {@code rowStarts.length == rows + 1}, from 0, non-decreasing, ending at
 * {@code values.length == columnIndices.length}; columns lie in {@code [0, cols)}.
 */
public final class RowSlices {
    private final String format;
    private final int rows;
    private final int cols;
    private final int[] rowStarts;
    private final int[] columnIndices;
    private final float[] values;
    private final boolean rowPointersStored;

    private RowSlices(String format, int rows, int cols, int[] rowStarts, int[] columnIndices, float[] values, boolean rowPointersStored) {
        this.format = format;
        this.rows = rows;
        this.cols = cols;
        this.rowStarts = rowStarts;
        this.columnIndices = columnIndices;
        this.values = values;
        this.rowPointersStored = rowPointersStored;
        if (rowStarts.length != rows + 1 || rowStarts[rows] != values.length || columnIndices.length != values.length) {
            throw new IllegalArgumentException(format + ": inconsistent row slices");
        }
    }

    public static RowSlices of(CsrMatrix a) {
        return new RowSlices("csr", a.rows(), a.cols(), a.rowPointers(), a.columnIndices(), a.values(), true);
    }

    public static RowSlices of(EllMatrix a) {
        int[] starts = new int[a.rows() + 1];
        for (int r = 0; r < a.rows(); r++) starts[r + 1] = starts[r] + a.width();
        return new RowSlices("ell", a.rows(), a.cols(), starts, a.columnIndices(), a.values(), false);
    }

    public String format() { return format; }

    public int rows() { return rows; }

    public int cols() { return cols; }

    /** Slots, padding included. */
    public int slots() { return rowStarts[rows]; }

    public int[] rowStarts() { return rowStarts; }

    public int[] columnIndices() { return columnIndices; }

    public float[] values() { return values; }

    /** Whether the format stores row pointers (CSR) or computes row starts (ELL). */
    public boolean rowPointersStored() { return rowPointersStored; }

    public Map<ArrayRole, Long> arrayBytes() {
        long slots = slots();
        return rowPointersStored
                ? Map.of(ArrayRole.ROW_POINTERS, (rows + 1L) * Integer.BYTES, ArrayRole.COLUMN_INDICES, slots * Integer.BYTES, ArrayRole.VALUES, slots * Float.BYTES)
                : Map.of(ArrayRole.COLUMN_INDICES, slots * Integer.BYTES, ArrayRole.VALUES, slots * Float.BYTES);
    }
}
