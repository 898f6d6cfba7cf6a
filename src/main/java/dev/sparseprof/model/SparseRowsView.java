package dev.sparseprof.model;

import java.util.Arrays;

/**
 * A matrix known by its non-zeros (a Matrix Market coordinate file), kept in row-compressed arrays
 * so that memory follows the entries the file really holds, not {@code rows x cols}; rows are
 * streamed dense.
 *
 * <p>Invariant: {@code rowStart} has {@code rows + 1} non-decreasing entries ending at
 * {@code columns.length == values.length}; columns lie in {@code [0, cols)}.
 */
final class SparseRowsView extends DecodedMatrix {
    private final long[] rowStart;
    private final int[] columns;
    private final float[] values;

    SparseRowsView(int rows, int cols, long[] rowStart, int[] columns, float[] values) {
        super(rows, cols);
        if (rowStart.length != rows + 1 || rowStart[rows] != columns.length || columns.length != values.length) {
            throw new IllegalArgumentException("inconsistent sparse rows");
        }
        this.rowStart = rowStart;
        this.columns = columns;
        this.values = values;
    }

    /** Builds the arrays from unordered entries (duplicates are summed, as SciPy and MATLAB do). */
    static SparseRowsView fromEntries(int rows, int cols, int[] entryRows, int[] entryCols, float[] entryValues, int count) {
        long[] start = new long[rows + 1];
        for (int i = 0; i < count; i++) start[entryRows[i] + 1]++;
        for (int r = 0; r < rows; r++) start[r + 1] += start[r];
        long[] fill = Arrays.copyOf(start, rows);
        int[] c = new int[count];
        float[] v = new float[count];
        for (int i = 0; i < count; i++) {
            int at = (int) fill[entryRows[i]]++;
            c[at] = entryCols[i];
            v[at] = entryValues[i];
        }
        return new SparseRowsView(rows, cols, start, c, v);
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        Arrays.fill(dst, offset, offset + cols, 0.0f);
        for (long j = rowStart[row]; j < rowStart[row + 1]; j++) dst[offset + columns[(int) j]] += values[(int) j];
    }
}
