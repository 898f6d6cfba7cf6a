package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;

/**
 * A histogram of lengths with equal-width bins: bin {@code i} counts lengths in
 * {@code [i*binWidth, (i+1)*binWidth)}; the bins cover {@code [0, max]}.
 */
public final class LengthHistogram {
    private final int binWidth;
    private final long[] counts;

    LengthHistogram(int binWidth, long[] counts) {
        if (binWidth < 1) throw new SparseprofException("histogram bin width must be positive, got " + binWidth);
        this.binWidth = binWidth;
        this.counts = counts;
    }

    public int bins() {
        return counts.length;
    }

    public int binWidth() {
        return binWidth;
    }

    /** Smallest length counted by bin {@code i}. */
    public long lowerInclusive(int i) {
        return (long) i * binWidth;
    }

    /** One past the largest length counted by bin {@code i}. */
    public long upperExclusive(int i) {
        return (long) (i + 1) * binWidth;
    }

    public long count(int i) {
        return counts[i];
    }

    /** A copy of the bin counts. */
    public long[] counts() {
        return counts.clone();
    }
}
