package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * The N:M compressed layout of Ampere Sparse Tensor Cores: every group of M consecutive elements of
 * a row (along the reduction dimension) stores exactly N value slots plus the slots' positions in
 * the group as metadata. PTX ISA "Sparse matrix storage" (hardware-facts.md §2): fp16/bf16/int8 use
 * 2:4 with two 2-bit indices (4 bits) per group; tf32 uses 1:2 with a 4-bit index per 2-element
 * chunk. The metadata width per group is therefore a parameter of the layout, not N*log2(M).
 *
 * <p>Invariant ({@link #validate()}): with {@code G = ceil(cols/M)} groups per row, slot {@code s}
 * of group {@code g} of row {@code r} is at {@code (r*G + g)*N + s}; its column is
 * {@code g*M + positions[slot]}, always inside the matrix (a partial last group has fewer real
 * columns); the slots holding non-zeros have strictly increasing positions. {@link #from} fills a
 * group with fewer than N non-zeros with 0.0f at the smallest unused positions (so slots sort by
 * position and are distinct whenever the group is at least N wide), as the hardware expects.
 *
 * <p>Bytes: values {@code nnz * s}, empty slots {@code (rows*G*N - nnz) * s} as padding, metadata
 * {@code ceil(rows*G*bits/8)}; no separate indices.
 */
public final class NmMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final NmPattern pattern;
    private final int metadataBitsPerGroup;
    private final float[] values;
    private final byte[] positions;
    private final int nnz;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public NmMatrix(int rows, int cols, NmPattern pattern, int metadataBitsPerGroup, float[] values, byte[] positions) {
        this.rows = rows;
        this.cols = cols;
        this.pattern = pattern;
        this.metadataBitsPerGroup = metadataBitsPerGroup;
        this.values = values;
        this.positions = positions;
        this.nnz = checkSlots();
    }

    /** The layout of {@code a}; a group with more than N non-zeros is an error naming it. */
    public static NmMatrix from(CsrMatrix a, NmPattern pattern, int metadataBitsPerGroup) {
        int rows = a.rows();
        int cols = a.cols();
        int n = pattern.n();
        int m = pattern.m();
        int groups = groupsPerRow(cols, pattern);
        int slots = Checks.toIntExact((long) rows * groups * n, pattern.label() + " slots");
        float[] values = new float[slots];
        byte[] positions = new byte[slots];
        int[] ptr = a.rowPointers();
        int[] idx = a.columnIndices();
        float[] val = a.values();
        boolean[] used = new boolean[m];
        for (int r = 0; r < rows; r++) {
            int j = ptr[r];
            int end = ptr[r + 1];
            for (int g = 0; g < groups; g++) {
                int base = (r * groups + g) * n;
                int groupStart = g * m;
                int groupEnd = Math.min(cols, groupStart + m);
                int first = j;
                int k = 0;
                Arrays.fill(used, false);
                for (; j < end && idx[j] < groupEnd; j++) {
                    if (val[j] == 0.0f) continue;
                    used[idx[j] - groupStart] = true;
                    k++;
                }
                if (k > n) {
                    throw new SparseprofException("not " + pattern.label() + ": row " + r + " group " + g + " has " + k + " non-zeros");
                }
                // the group's positions in order: its non-zeros, and the first free ones as padding
                int padding = n - k;
                int s = 0;
                int e = first;
                for (int p = 0; p < groupEnd - groupStart && s < n; p++) {
                    if (used[p]) {
                        while (val[e] == 0.0f) e++;
                        values[base + s] = val[e++];
                        positions[base + s++] = (byte) p;
                    } else if (padding > 0) {
                        positions[base + s++] = (byte) p;
                        padding--;
                    }
                }
                while (s < n) positions[base + s++] = 0;
            }
        }
        return new NmMatrix(rows, cols, pattern, metadataBitsPerGroup, values, positions);
    }

    static int groupsPerRow(int cols, NmPattern pattern) {
        return (int) pattern.groupsPerRow(cols);
    }

    @Override
    public void validate() {
        checkSlots();
    }

    private int checkSlots() {
        if (pattern == null) throw new SparseprofException("N:M layout: no pattern");
        String fmt = pattern.label();
        if (rows < 0 || cols < 0) throw new SparseprofException(fmt + ": negative shape");
        if (pattern.m() > 128) throw new SparseprofException(fmt + ": M above 128 does not fit the byte positions");
        if (metadataBitsPerGroup < 1) throw new SparseprofException(fmt + ": metadata bits per group must be positive");
        int groups = groupsPerRow(cols, pattern);
        int n = pattern.n();
        if (values.length != (long) rows * groups * n || positions.length != values.length) {
            throw new SparseprofException(fmt + ": " + values.length + " values and " + positions.length
                    + " positions for " + rows + " rows of " + groups + " groups of " + n);
        }
        int count = 0;
        for (int r = 0; r < rows; r++) {
            for (int g = 0; g < groups; g++) {
                int base = (r * groups + g) * n;
                int width = Math.min(pattern.m(), cols - g * pattern.m());
                int last = -1;
                for (int s = 0; s < n; s++) {
                    int p = positions[base + s];
                    if (p < 0 || p >= width) throw new SparseprofException(fmt + ": row " + r + " group " + g + " slot " + s + " position " + p + " outside the group");
                    if (values[base + s] == 0.0f) continue;
                    if (p <= last) throw new SparseprofException(fmt + ": row " + r + " group " + g + " positions not increasing");
                    last = p;
                    count++;
                }
            }
        }
        return count;
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return nnz; }

    public NmPattern pattern() { return pattern; }

    public int metadataBitsPerGroup() { return metadataBitsPerGroup; }

    public int groupsPerRow() { return groupsPerRow(cols, pattern); }

    /** The backing arrays, for kernels: read-only by convention. */
    public float[] values() { return values; }

    /** Position of each slot within its group, {@code 0 .. M-1}. */
    public byte[] positions() { return positions; }

    @Override
    public Format format() {
        return new Format.Nm(pattern, metadataBitsPerGroup);
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, pattern, metadataBitsPerGroup, nnz, dtype);
    }

    static StorageCost storage(int rows, int cols, NmPattern pattern, int bitsPerGroup, long nnz, DType dtype) {
        long groups = (long) rows * pattern.groupsPerRow(cols);
        long slots = groups * pattern.n();
        int s = dtype.sizeBytes();
        return new StorageCost(pattern.label(), dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * s, 0,
                (groups * bitsPerGroup + 7) / 8, (slots - nnz) * s);
    }

    @Override
    public CsrMatrix toCsr() {
        int groups = groupsPerRow();
        int n = pattern.n();
        int[] ptr = new int[rows + 1];
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int at = 0;
        for (int r = 0; r < rows; r++) {
            for (int g = 0; g < groups; g++) {
                int base = (r * groups + g) * n;
                for (int s = 0; s < n; s++) {
                    if (values[base + s] == 0.0f) continue;
                    idx[at] = g * pattern.m() + positions[base + s];
                    val[at++] = values[base + s];
                }
            }
            ptr[r + 1] = at;
        }
        return new CsrMatrix(rows, cols, ptr, idx, val);
    }
}
