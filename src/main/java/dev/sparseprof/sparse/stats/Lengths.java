package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * Non-zeros per row (or per column) of one matrix, in order. Memory is one int per row, never
 * per element; formats whose size depends on the row order (ELL, SELL-C-sigma) are sized from it.
 */
public final class Lengths {
    private final int[] lengths;
    private final LengthSummary summary;

    /** Takes ownership of the array. */
    Lengths(int[] lengths) {
        this.lengths = lengths;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] < 0) throw new SparseprofException("length " + i + " is negative: " + lengths[i]);
        }
        this.summary = LengthSummary.of(lengths);
    }

    /** Lengths from a copy of {@code values} (for tests and callers that counted themselves). */
    public static Lengths of(int... values) {
        return new Lengths(values.clone());
    }

    public int count() {
        return lengths.length;
    }

    public int get(int i) {
        return lengths[i];
    }

    /** A copy of the lengths. */
    public int[] toArray() {
        return lengths.clone();
    }

    public LengthSummary summary() {
        return summary;
    }

    public long sum() {
        long s = 0;
        for (int v : lengths) s += v;
        return s;
    }

    /** An equal-width histogram of at most {@code maxBins} bins covering {@code [0, max]}. */
    public LengthHistogram histogram(int maxBins) {
        if (maxBins < 1) throw new SparseprofException("histogram needs at least one bin, got " + maxBins);
        long span = (long) summary.max() + 1;
        int width = (int) ((span + maxBins - 1) / maxBins);
        long[] counts = new long[(int) ((span + width - 1) / width)];
        for (int v : lengths) counts[v / width]++;
        return new LengthHistogram(width, counts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Lengths other && Arrays.equals(lengths, other.lengths);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(lengths);
    }

    @Override
    public String toString() {
        return "Lengths" + summary;
    }
}
