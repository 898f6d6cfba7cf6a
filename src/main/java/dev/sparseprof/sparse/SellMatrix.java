package dev.sparseprof.sparse;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * SELL-C-sigma storage (Kreutzer et al., "A unified sparse matrix data format for efficient general
 * sparse matrix-vector multiply on modern processors with wide SIMD units", arXiv 1307.6209): rows
 * are sorted by length (descending) within windows of sigma rows, then cut into chunks of C rows;
 * each chunk is padded to its own longest row and stored column-major, so C consecutive slots hold
 * one element of each of the chunk's C rows (one SIMD vector or one warp's loads).
 *
 * <p>Invariant ({@link #validate()}): {@code permutation} is a permutation of the rows that moves a
 * row only within its sigma window ({@code permutation[p] / sigma == p / sigma}); stored position
 * {@code p} holds matrix row {@code permutation[p]}; chunk {@code k} holds positions
 * {@code [k*C, (k+1)*C)} (the last chunk is padded to C positions with all-padding rows) and has
 * {@code chunkPointers[k+1] - chunkPointers[k] = C * width_k} slots; slot {@code j} of position
 * {@code p = k*C + i} is at {@code chunkPointers[k] + j*C + i}; each row holds its non-zeros first
 * (increasing columns), then padding (0.0f at column 0).
 *
 * <p>Bytes: values {@code nnz * s}, column indices {@code nnz * w(cols)}, padding
 * {@code (slots - nnz) * (s + w(cols))}, metadata: chunk pointers {@code (chunks + 1) * w(max slots)}
 * and, when sigma > 1, the permutation {@code rows * w(rows)} (results must be scattered back).
 */
public final class SellMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final int chunkHeight;
    private final int sigma;
    private final int[] permutation;
    private final int[] chunkPointers;
    private final int[] columnIndices;
    private final float[] values;
    private final int nnz;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public SellMatrix(int rows, int cols, int chunkHeight, int sigma, int[] permutation, int[] chunkPointers,
                      int[] columnIndices, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.chunkHeight = chunkHeight;
        this.sigma = sigma;
        this.permutation = permutation;
        this.chunkPointers = chunkPointers;
        this.columnIndices = columnIndices;
        this.values = values;
        this.nnz = checkSlots();
    }

    public static SellMatrix from(CsrMatrix a, int chunkHeight, int sigma) {
        checkParameters(chunkHeight, sigma);
        int rows = a.rows();
        int[] lengths = new int[rows];
        for (int r = 0; r < rows; r++) lengths[r] = PaddedSlots.nonZeros(a, r);
        int[] perm = permutation(lengths, sigma);
        int chunks = chunks(rows, chunkHeight);
        int[] ptr = new int[chunks + 1];
        long slots = 0;
        for (int k = 0; k < chunks; k++) {
            slots += (long) chunkHeight * chunkWidth(lengths, perm, k, chunkHeight);
            ptr[k + 1] = Checks.toIntExact(slots, "SELL-" + chunkHeight + "-" + sigma + " slots");
        }
        int[] idx = new int[(int) slots];
        float[] val = new float[(int) slots];
        for (int p = 0; p < rows; p++) {
            int k = p / chunkHeight;
            int width = (ptr[k + 1] - ptr[k]) / chunkHeight;
            PaddedSlots.fill(a, perm[p], idx, val, ptr[k] + p % chunkHeight, chunkHeight, width);
        }
        return new SellMatrix(rows, a.cols(), chunkHeight, sigma, perm, ptr, idx, val);
    }

    static void checkParameters(int chunkHeight, int sigma) {
        if (chunkHeight < 1 || sigma < 1) {
            throw new SparseprofException("SELL-C-sigma: chunk height C and sort window sigma must be positive, got C="
                    + chunkHeight + " sigma=" + sigma);
        }
    }

    static int chunks(int rows, int chunkHeight) {
        return (int) ((rows + (long) chunkHeight - 1) / chunkHeight);
    }

    /**
     * Rows sorted by length, longest first, within each window of {@code sigma} rows; ties keep
     * the original order, so the permutation is deterministic. {@code sigma == 1} is the identity.
     */
    static int[] permutation(int[] lengths, int sigma) {
        int rows = lengths.length;
        int[] perm = new int[rows];
        long[] keys = new long[Math.min(rows, sigma)];
        for (int start = 0; start < rows; start += sigma) {
            int end = (int) Math.min(rows, (long) start + sigma);
            for (int r = start; r < end; r++) keys[r - start] = ((long) (Integer.MAX_VALUE - lengths[r]) << 32) | r;
            Arrays.sort(keys, 0, end - start);
            for (int r = start; r < end; r++) perm[r] = (int) keys[r - start];
        }
        return perm;
    }

    /** Longest row of chunk {@code k} (positions past the last row count as empty). */
    static int chunkWidth(int[] lengths, int[] perm, int k, int chunkHeight) {
        int width = 0;
        int end = (int) Math.min(perm.length, ((long) k + 1) * chunkHeight);
        for (int p = k * chunkHeight; p < end; p++) width = Math.max(width, lengths[perm[p]]);
        return width;
    }

    /** Slots of the layout for rows of these lengths: {@code sum over chunks of C * width}. */
    public static long slots(int[] lengths, int chunkHeight, int sigma) {
        long slots = 0;
        for (int width : chunkWidths(lengths, chunkHeight, sigma)) slots += (long) chunkHeight * width;
        return slots;
    }

    /** Each chunk's width (its longest row) in the layout of rows of these lengths. */
    public static int[] chunkWidths(int[] lengths, int chunkHeight, int sigma) {
        checkParameters(chunkHeight, sigma);
        int[] perm = permutation(lengths, sigma);
        int[] widths = new int[chunks(lengths.length, chunkHeight)];
        for (int k = 0; k < widths.length; k++) widths[k] = chunkWidth(lengths, perm, k, chunkHeight);
        return widths;
    }

    @Override
    public void validate() {
        checkSlots();
    }

    private int checkSlots() {
        checkParameters(chunkHeight, sigma);
        String fmt = "SELL-" + chunkHeight + "-" + sigma;
        if (rows < 0 || cols < 0) throw new SparseprofException(fmt + ": negative shape");
        if (permutation.length != rows) throw new SparseprofException(fmt + ": permutation has " + permutation.length + " entries for " + rows + " rows");
        boolean[] seen = new boolean[rows];
        for (int p = 0; p < rows; p++) {
            int r = permutation[p];
            if (r < 0 || r >= rows || seen[r]) throw new SparseprofException(fmt + ": permutation is not a permutation at position " + p);
            if (r / sigma != p / sigma) throw new SparseprofException(fmt + ": row " + r + " moved out of its sort window to position " + p);
            seen[r] = true;
        }
        int chunks = chunks(rows, chunkHeight);
        if (chunkPointers.length != chunks + 1 || chunkPointers[0] != 0) {
            throw new SparseprofException(fmt + ": need " + (chunks + 1) + " chunk pointers starting at 0");
        }
        if (columnIndices.length != values.length || values.length != chunkPointers[chunks]) {
            throw new SparseprofException(fmt + ": " + values.length + " values and " + columnIndices.length
                    + " indices, chunk pointers end at " + chunkPointers[chunks]);
        }
        int n = 0;
        for (int k = 0; k < chunks; k++) {
            int chunkSlots = chunkPointers[k + 1] - chunkPointers[k];
            if (chunkSlots < 0 || chunkSlots % chunkHeight != 0) {
                throw new SparseprofException(fmt + ": chunk " + k + " has " + chunkSlots + " slots, not a multiple of " + chunkHeight);
            }
            int width = chunkSlots / chunkHeight;
            for (int i = 0; i < chunkHeight; i++) {
                int p = k * chunkHeight + i;
                int found = PaddedSlots.check(fmt, p < rows ? permutation[p] : -1, cols, columnIndices, values, chunkPointers[k] + i, chunkHeight, width);
                if (p >= rows && found > 0) throw new SparseprofException(fmt + ": padding position " + p + " holds non-zeros");
                n += found;
            }
        }
        return n;
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return nnz; }

    public int chunkHeight() { return chunkHeight; }

    public int sigma() { return sigma; }

    public int chunkCount() { return chunkPointers.length - 1; }

    /** Slots per row of chunk {@code k}. */
    public int chunkWidth(int k) { return (chunkPointers[k + 1] - chunkPointers[k]) / chunkHeight; }

    /** The backing arrays, for kernels: read-only by convention. */
    public int[] permutation() { return permutation; }

    public int[] chunkPointers() { return chunkPointers; }

    public int[] columnIndices() { return columnIndices; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return new Format.Sell(chunkHeight, sigma);
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, chunkHeight, sigma, nnz, values.length, dtype);
    }

    static StorageCost storage(int rows, int cols, int chunkHeight, int sigma, long nnz, long slots, DType dtype) {
        int s = dtype.sizeBytes();
        int w = IndexWidth.forExtent(cols).sizeBytes();
        long pointers = (chunks(rows, chunkHeight) + 1L) * IndexWidth.forMaxValue(slots).sizeBytes();
        long perm = sigma > 1 ? (long) rows * IndexWidth.forExtent(rows).sizeBytes() : 0;
        return new StorageCost("sell-" + chunkHeight + "-" + sigma, dtype, StorageCost.denseBytes(rows, cols, dtype),
                nnz * s, nnz * w, pointers + perm, (slots - nnz) * (s + w));
    }

    @Override
    public CsrMatrix toCsr() {
        int[] position = new int[rows];
        for (int p = 0; p < rows; p++) position[permutation[p]] = p;
        int[] ptr = new int[rows + 1];
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            int p = position[r];
            int k = p / chunkHeight;
            at = PaddedSlots.copyOut(columnIndices, values, chunkPointers[k] + p % chunkHeight, chunkHeight, chunkWidth(k), idx, val, at);
            ptr[r + 1] = at;
        }
        return new CsrMatrix(rows, cols, ptr, idx, val);
    }
}
