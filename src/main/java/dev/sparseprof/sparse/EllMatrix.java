package dev.sparseprof.sparse;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;

/**
 * ELLPACK storage: every row padded to the same width W, the longest row's length.
 *
 * <p>Invariant ({@link #validate()}): {@code values.length == columnIndices.length == rows * W};
 * row {@code r}'s slot {@code j} is at {@code r*W + j} (row-major); each row holds its non-zeros
 * first, with strictly increasing columns, then padding slots of 0.0f at column 0.
 *
 * <p>Bytes: values {@code nnz * s}, column indices {@code nnz * w(cols)}, padding
 * {@code (rows*W - nnz) * (s + w(cols))}, no metadata (W is one number).
 */
public final class EllMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final int width;
    private final int[] columnIndices;
    private final float[] values;
    private final int nnz;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public EllMatrix(int rows, int cols, int width, int[] columnIndices, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.width = width;
        this.columnIndices = columnIndices;
        this.values = values;
        this.nnz = checkSlots();
    }

    public static EllMatrix from(CsrMatrix a) {
        int rows = a.rows();
        int width = 0;
        for (int r = 0; r < rows; r++) width = Math.max(width, PaddedSlots.nonZeros(a, r));
        int slots = Checks.toIntExact((long) rows * width, "ELL slots of " + rows + " rows x width " + width);
        int[] idx = new int[slots];
        float[] val = new float[slots];
        for (int r = 0; r < rows; r++) PaddedSlots.fill(a, r, idx, val, r * width, 1, width);
        return new EllMatrix(rows, a.cols(), width, idx, val);
    }

    @Override
    public void validate() {
        checkSlots();
    }

    private int checkSlots() {
        if (rows < 0 || cols < 0 || width < 0) throw new SparseprofException("ELL: negative shape or width");
        if (values.length != (long) rows * width || columnIndices.length != values.length) {
            throw new SparseprofException("ELL: " + values.length + " values and " + columnIndices.length
                    + " indices for " + rows + " rows of width " + width);
        }
        int n = 0;
        for (int r = 0; r < rows; r++) n += PaddedSlots.check("ELL", r, cols, columnIndices, values, r * width, 1, width);
        return n;
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return nnz; }

    /** Slots per row (the longest row's length). */
    public int width() { return width; }

    /** The backing arrays, for kernels: read-only by convention. */
    public int[] columnIndices() { return columnIndices; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return Format.Ell.INSTANCE;
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, nnz, width, dtype);
    }

    static StorageCost storage(int rows, int cols, long nnz, int width, DType dtype) {
        int s = dtype.sizeBytes();
        int w = IndexWidth.forExtent(cols).sizeBytes();
        return new StorageCost("ell", dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * s, nnz * w, 0,
                ((long) rows * width - nnz) * (s + w));
    }

    @Override
    public CsrMatrix toCsr() {
        int[] ptr = new int[rows + 1];
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            at = PaddedSlots.copyOut(columnIndices, values, r * width, 1, width, idx, val, at);
            ptr[r + 1] = at;
        }
        return new CsrMatrix(rows, cols, ptr, idx, val);
    }
}
