package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.GrowIntArray;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;

/**
 * Compressed sparse row storage of a {@code rows x cols} float matrix.
 *
 * <p>Invariant ({@link #validate()}): {@code rowPointers.length == rows + 1},
 * {@code rowPointers[0] == 0}, non-decreasing, {@code rowPointers[rows] == nnz}; within a row,
 * column indices are strictly increasing and lie in {@code [0, cols)}. Explicit zeros are not
 * stored by {@link #from(MatrixView)}.
 *
 * <p>Bytes: values {@code nnz * s}, column indices {@code nnz * w(cols)}, row pointers
 * {@code (rows + 1) * w(max nnz)} as metadata (widths: {@link IndexWidth}).
 */
public final class CsrMatrix implements SparseMatrix {
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

    /** CSR of a row-major array, skipping exact zeros. */
    public static CsrMatrix fromDense(int rows, int cols, float[] rowMajor) {
        return from(MatrixView.of(rows, cols, rowMajor));
    }

    @Override
    public void validate() {
        Compressed.validate("CSR", "row", rows, cols, rowPointers, columnIndices, values.length);
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return rowPointers[rows]; }

    public int rowLength(int r) { return rowPointers[r + 1] - rowPointers[r]; }

    /** The backing arrays, for kernels: read-only by convention, never resized. */
    public int[] rowPointers() { return rowPointers; }

    public int[] columnIndices() { return columnIndices; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return Format.Csr.INSTANCE;
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, nnz(), dtype);
    }

    /** The CSR byte formula, shared by instances and by {@link Format#cost(MatrixStats, DType)}. */
    static StorageCost storage(int rows, int cols, long nnz, DType dtype) {
        return new StorageCost("csr", dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * dtype.sizeBytes(),
                nnz * IndexWidth.forExtent(cols).sizeBytes(), (rows + 1L) * IndexWidth.forMaxValue(nnz).sizeBytes(), 0);
    }

    @Override
    public CsrMatrix toCsr() {
        return this;
    }

    @Override
    public float[] toDense() {
        float[] out = new float[Checks.toIntExact((long) rows * cols, "dense " + rows + "x" + cols)];
        for (int r = 0; r < rows; r++) {
            for (int j = rowPointers[r]; j < rowPointers[r + 1]; j++) out[r * cols + columnIndices[j]] = values[j];
        }
        return out;
    }
}
