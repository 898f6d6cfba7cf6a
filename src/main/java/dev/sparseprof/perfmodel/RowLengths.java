package dev.sparseprof.perfmodel;

import java.util.Arrays;

/**
 * The number of stored non-zeros in each row of a sparse operand (or in each block row, for a
 * blocked format), the input of every load-balance model. Holds a private copy; never changes.
 */
public final class RowLengths {
    private final int[] lengths;
    private final long total;
    private final int max;

    public RowLengths(int[] lengths) {
        if (lengths.length == 0) throw new IllegalArgumentException("no rows");
        this.lengths = lengths.clone();
        long t = 0;
        int m = 0;
        for (int l : this.lengths) {
            if (l < 0) throw new IllegalArgumentException("negative row length " + l);
            t += l;
            m = Math.max(m, l);
        }
        this.total = t;
        this.max = m;
    }

    /** {@code rows} rows of {@code length} each (dense, or perfectly regular sparsity). */
    public static RowLengths uniform(int rows, int length) {
        int[] l = new int[rows];
        Arrays.fill(l, length);
        return new RowLengths(l);
    }

    public int rows() {
        return lengths.length;
    }

    public int length(int row) {
        return lengths[row];
    }

    public long total() {
        return total;
    }

    public int max() {
        return max;
    }

    public double mean() {
        return (double) total / lengths.length;
    }

    /** Coefficient of variation (standard deviation / mean); 0 when every row has the same length. */
    public double coefficientOfVariation() {
        double mean = mean();
        if (mean == 0) return 0;
        double s = 0;
        for (int l : lengths) s += (l - mean) * (l - mean);
        return Math.sqrt(s / lengths.length) / mean;
    }
}
