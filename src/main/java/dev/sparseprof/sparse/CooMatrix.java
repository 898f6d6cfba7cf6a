package dev.sparseprof.sparse;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;

/**
 * Coordinate storage: one (row, column, value) triple per non-zero.
 *
 * <p>Invariant ({@link #validate()}): the three arrays have equal length nnz; coordinates lie in
 * range and are sorted row-major without repeats ((row, column) strictly increasing).
 *
 * <p>Bytes: values {@code nnz * s}, indices {@code nnz * (w(rows) + w(cols))}, no metadata.
 */
public final class CooMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final int[] rowIndices;
    private final int[] columnIndices;
    private final float[] values;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public CooMatrix(int rows, int cols, int[] rowIndices, int[] columnIndices, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.rowIndices = rowIndices;
        this.columnIndices = columnIndices;
        this.values = values;
        validate();
    }

    public static CooMatrix from(CsrMatrix a) {
        int nnz = a.nnz();
        int[] rowIdx = new int[nnz];
        int[] ptr = a.rowPointers();
        for (int r = 0; r < a.rows(); r++) {
            for (int j = ptr[r]; j < ptr[r + 1]; j++) rowIdx[j] = r;
        }
        return new CooMatrix(a.rows(), a.cols(), rowIdx, a.columnIndices().clone(), a.values().clone());
    }

    @Override
    public void validate() {
        if (rows < 0 || cols < 0) throw new SparseprofException("COO: negative shape " + rows + "x" + cols);
        int nnz = values.length;
        if (rowIndices.length != nnz || columnIndices.length != nnz) {
            throw new SparseprofException("COO: " + rowIndices.length + " row indices, " + columnIndices.length
                    + " column indices, " + nnz + " values");
        }
        for (int j = 0; j < nnz; j++) {
            int r = rowIndices[j];
            int c = columnIndices[j];
            if (r < 0 || r >= rows || c < 0 || c >= cols) throw new SparseprofException("COO: entry " + j + " at (" + r + ", " + c + ") out of range");
            if (j > 0 && (r < rowIndices[j - 1] || (r == rowIndices[j - 1] && c <= columnIndices[j - 1]))) {
                throw new SparseprofException("COO: entry " + j + " not in row-major order");
            }
        }
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return values.length; }

    /** The backing arrays, for kernels: read-only by convention. */
    public int[] rowIndices() { return rowIndices; }

    public int[] columnIndices() { return columnIndices; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return Format.Coo.INSTANCE;
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, nnz(), dtype);
    }

    static StorageCost storage(int rows, int cols, long nnz, DType dtype) {
        long indexBytes = nnz * (IndexWidth.forExtent(rows).sizeBytes() + IndexWidth.forExtent(cols).sizeBytes());
        return new StorageCost("coo", dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * dtype.sizeBytes(), indexBytes, 0, 0);
    }

    @Override
    public CsrMatrix toCsr() {
        int[] ptr = new int[rows + 1];
        for (int r : rowIndices) ptr[r + 1]++;
        for (int r = 0; r < rows; r++) ptr[r + 1] += ptr[r];
        return new CsrMatrix(rows, cols, ptr, columnIndices.clone(), values.clone());
    }
}
