package dev.sparseprof.sparse;

import dev.sparseprof.util.GrowIntArray;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * Compressed sparse row storage of a {@code rows x cols} float matrix.
 *
 * <p>Invariant ({@link #validate()}): {@code rowPointers.length == rows + 1},
 * {@code rowPointers[0] == 0}, non-decreasing, {@code rowPointers[rows] == nnz}; within a row,
 * column indices are strictly increasing and lie in {@code [0, cols)}. Explicit zeros are not
 * stored by {@link #from(MatrixView)}.
 */
public final class CsrMatrix {
    private final int rows;
    private final int cols;
    private final int[] rowPointers;
    private final int[] columnIndices;
    private final float[] values;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public CsrMatrix(int rows, int cols, int[] rowPointers, int[] columnIndices, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.rowPointers = rowPointers;
        this.columnIndices = columnIndices;
        this.values = values;
        validate();
    }

    /** Builds CSR from any matrix view, skipping exact zeros. */
    public static CsrMatrix from(MatrixView m) {
        int rows = m.rows();
        int cols = m.cols();
        int[] rowPointers = new int[rows + 1];
        GrowIntArray idx = new GrowIntArray();
        float[] row = new float[cols];
        float[] vals = new float[16];
        int nnz = 0;
        for (int r = 0; r < rows; r++) {
            m.copyRow(r, row, 0);
            for (int c = 0; c < cols; c++) {
                if (row[c] != 0.0f) {
                    if (nnz == vals.length) vals = Arrays.copyOf(vals, vals.length * 2);
                    vals[nnz++] = row[c];
                    idx.add(c);
                }
            }
            rowPointers[r + 1] = nnz;
        }
        return new CsrMatrix(rows, cols, rowPointers, idx.toArray(), Arrays.copyOf(vals, nnz));
    }

    public void validate() {
        if (rows < 0 || cols < 0) throw new SparseprofException("CSR: negative shape " + rows + "x" + cols);
        if (rowPointers.length != rows + 1) throw new SparseprofException("CSR: rowPointers has " + rowPointers.length + " entries, need " + (rows + 1));
        if (rowPointers[0] != 0) throw new SparseprofException("CSR: rowPointers[0] = " + rowPointers[0]);
        int nnz = rowPointers[rows];
        if (columnIndices.length != nnz || values.length != nnz) {
            throw new SparseprofException("CSR: nnz " + nnz + " but " + columnIndices.length + " indices and " + values.length + " values");
        }
        for (int r = 0; r < rows; r++) {
            int start = rowPointers[r];
            int end = rowPointers[r + 1];
            if (end < start) throw new SparseprofException("CSR: rowPointers decrease at row " + r);
            for (int j = start; j < end; j++) {
                int c = columnIndices[j];
                if (c < 0 || c >= cols) throw new SparseprofException("CSR: column " + c + " out of range in row " + r);
                if (j > start && c <= columnIndices[j - 1]) throw new SparseprofException("CSR: columns not increasing in row " + r);
            }
        }
    }

    public int rows() { return rows; }

    public int cols() { return cols; }

    public int nnz() { return rowPointers[rows]; }

    public int rowLength(int r) { return rowPointers[r + 1] - rowPointers[r]; }

    /** The backing arrays, for kernels: read-only by convention, never resized. */
    public int[] rowPointers() { return rowPointers; }

    public int[] columnIndices() { return columnIndices; }

    public float[] values() { return values; }

    public float[] toDense() {
        float[] out = new float[rows * cols];
        for (int r = 0; r < rows; r++) {
            for (int j = rowPointers[r]; j < rowPointers[r + 1]; j++) out[r * cols + columnIndices[j]] = values[j];
        }
        return out;
    }
}
