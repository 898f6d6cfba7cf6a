package dev.sparseprof.sparse;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;

/**
 * Bitmask storage: one bit per element saying whether it is stored, and the stored values packed
 * in row-major order. Each row's bits start a fresh 64-bit word ({@code W = ceil(cols/64)} words
 * per row), so a kernel finds a row's bits without arithmetic across rows; a row's values start
 * after the popcount of all earlier rows (kernels keep a running offset).
 *
 * <p>Invariant ({@link #validate()}): {@code bitmap.length == rows * W}; bit {@code c & 63} of word
 * {@code r*W + (c >>> 6)} marks element (r, c); bits at or past {@code cols} are 0;
 * {@code values.length} equals the number of set bits.
 *
 * <p>Bytes: values {@code nnz * s}, metadata {@code rows * W * 8} (the bitmap as stored), no indices.
 */
public final class BitmaskMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final long[] bitmap;
    private final float[] values;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public BitmaskMatrix(int rows, int cols, long[] bitmap, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.bitmap = bitmap;
        this.values = values;
        validate();
    }

    public static BitmaskMatrix from(CsrMatrix a) {
        int rows = a.rows();
        int words = wordsPerRow(a.cols());
        long[] bitmap = new long[Checks.toIntExact((long) rows * words, "bitmask words")];
        int[] ptr = a.rowPointers();
        int[] idx = a.columnIndices();
        for (int r = 0; r < rows; r++) {
            for (int j = ptr[r]; j < ptr[r + 1]; j++) bitmap[r * words + (idx[j] >>> 6)] |= 1L << idx[j];
        }
        return new BitmaskMatrix(rows, a.cols(), bitmap, a.values().clone());
    }

    static int wordsPerRow(int cols) {
        return (cols + 63) >>> 6;
    }

    @Override
    public void validate() {
        if (rows < 0 || cols < 0) throw new SparseprofException("bitmask: negative shape " + rows + "x" + cols);
        int words = wordsPerRow(cols);
        if (bitmap.length != (long) rows * words) {
            throw new SparseprofException("bitmask: " + bitmap.length + " words for " + rows + " rows of " + words);
        }
        long tailMask = (cols & 63) == 0 ? 0L : -1L << (cols & 63);
        long set = 0;
        for (int r = 0; r < rows; r++) {
            if (words > 0 && (bitmap[r * words + words - 1] & tailMask) != 0) {
                throw new SparseprofException("bitmask: row " + r + " has bits past column " + (cols - 1));
            }
            for (int w = 0; w < words; w++) set += Long.bitCount(bitmap[r * words + w]);
        }
        if (set != values.length) throw new SparseprofException("bitmask: " + set + " bits set but " + values.length + " values");
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return values.length; }

    public int wordsPerRow() { return wordsPerRow(cols); }

    /** The backing arrays, for kernels: read-only by convention. */
    public long[] bitmap() { return bitmap; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return Format.Bitmask.INSTANCE;
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, nnz(), dtype);
    }

    static StorageCost storage(int rows, int cols, long nnz, DType dtype) {
        return new StorageCost("bitmask", dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * dtype.sizeBytes(), 0,
                (long) rows * wordsPerRow(cols) * Long.BYTES, 0);
    }

    @Override
    public CsrMatrix toCsr() {
        int words = wordsPerRow(cols);
        int[] ptr = new int[rows + 1];
        int[] idx = new int[values.length];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            for (int w = 0; w < words; w++) {
                long bits = bitmap[r * words + w];
                while (bits != 0) {
                    idx[at++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                }
            }
            ptr[r + 1] = at;
        }
        return new CsrMatrix(rows, cols, ptr, idx, values.clone());
    }
}
