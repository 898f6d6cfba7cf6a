package dev.sparseprof.sparse;

import dev.sparseprof.util.DType;

/**
 * Compressed sparse column storage: CSR of the transpose.
 *
 * <p>Invariant ({@link #validate()}): {@code columnPointers.length == cols + 1}, starting at 0,
 * non-decreasing, ending at nnz; within a column, row indices strictly increase in {@code [0, rows)}.
 *
 * <p>Bytes: values {@code nnz * s}, row indices {@code nnz * w(rows)}, column pointers
 * {@code (cols + 1) * w(max nnz)} as metadata.
 */
public final class CscMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final int[] columnPointers;
    private final int[] rowIndices;
    private final float[] values;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public CscMatrix(int rows, int cols, int[] columnPointers, int[] rowIndices, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.columnPointers = columnPointers;
        this.rowIndices = rowIndices;
        this.values = values;
        validate();
    }

    public static CscMatrix from(CsrMatrix a) {
        Compressed.Arrays3 t = Compressed.transpose(a.rows(), a.cols(), a.rowPointers(), a.columnIndices(), a.values());
        return new CscMatrix(a.rows(), a.cols(), t.pointers(), t.indices(), t.values());
    }

    @Override
    public void validate() {
        Compressed.validate("CSC", "column", cols, rows, columnPointers, rowIndices, values.length);
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return columnPointers[cols]; }

    /** The backing arrays, for kernels: read-only by convention. */
    public int[] columnPointers() { return columnPointers; }

    public int[] rowIndices() { return rowIndices; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return Format.Csc.INSTANCE;
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, nnz(), dtype);
    }

    static StorageCost storage(int rows, int cols, long nnz, DType dtype) {
        return new StorageCost("csc", dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * dtype.sizeBytes(),
                nnz * IndexWidth.forExtent(rows).sizeBytes(), (cols + 1L) * IndexWidth.forMaxValue(nnz).sizeBytes(), 0);
    }

    @Override
    public CsrMatrix toCsr() {
        Compressed.Arrays3 t = Compressed.transpose(cols, rows, columnPointers, rowIndices, values);
        return new CsrMatrix(rows, cols, t.pointers(), t.indices(), t.values());
    }
}
