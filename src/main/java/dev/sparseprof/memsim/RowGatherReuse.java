package dev.sparseprof.memsim;

/**
 * The share of a row gather's requests that an LRU cache serves, analytically: the rows of a sparse
 * matrix (csr, coo, N:M), each in ascending column order, fetch one B row per stored index. A B row
 * fetched by one A row is fetched again by a later A row that holds the same column; between the
 * two, the kernel touches the rest of the first row's B rows and the start of the next's, about one
 * row's sweep ({@code sweepBytes}: the mean row's entries x a B row's bytes) per A row apart. LRU
 * keeps the line only when that reuse distance fits the space: with {@code D = space / sweepBytes}
 * A rows' sweeps in the space, the line is hit when one of the next {@code D} A rows holds its
 * column, each with probability {@code touchShare} (the mean row length over the columns):
 * {@code 1 - (1 - touchShare)^D}, and never when {@code D < 1} (a sweep longer than the cache, as
 * LRU misses every line of a cyclic sweep larger than itself). A footprint that fits the space is
 * always hit.
 *
 * <p>The uniform share {@code space / footprint} (an independent-reference model) is what it
 * replaces for such streams; the two agree for short rows (48 of 384 columns at N = 128 fp32 in a
 * 48 KiB L1: 0.23 against 0.25) and part for long ones: a 2:4 row of 384 columns sweeps 96 KiB, so
 * none of it survives in that L1 (the uniform share said 0.25), as the Zen 5 VM's csr at N = 128
 * showed: 3.4-3.8 ns per entry for rows of 40-110 entries, 4.9-5.8 for rows of 140-350.
 */
public final class RowGatherReuse {
    private RowGatherReuse() {}

    /**
     * @param spaceBytes     the cache space the stream has (per instance)
     * @param footprintBytes the stream's distinct bytes
     * @param sweepBytes     one A row's B bytes (0: not a row sweep: the uniform share)
     * @param touchShare     the probability that an A row holds a given column, in [0, 1]
     */
    public static double hitShare(double spaceBytes, double footprintBytes, double sweepBytes, double touchShare) {
        if (!(footprintBytes > spaceBytes)) return 1;
        if (!(spaceBytes > 0)) return 0;
        if (!(sweepBytes > 0)) return spaceBytes / footprintBytes;
        double rows = spaceBytes / sweepBytes;
        if (rows < 1) return 0;
        double p = Math.max(0, Math.min(1, touchShare));
        return 1 - Math.pow(1 - p, rows);
    }

    /**
     * {@link #hitShare(double, double, double, double)} in a cache of {@code sets} sets of
     * {@code lineBytes} lines, LRU within each set, the space being {@code space / (sets x line)}
     * ways of each. A B line fetched by one A row comes back with the {@code d}-th row after it (the
     * first of them to hold its column: probability {@code p (1 - p)^(d-1)}), and is hit when fewer
     * other lines than the ways came into its set meanwhile: the distinct B lines those {@code d}
     * rows touch, {@code footprint x (1 - (1 - p)^d)} (rows of high density touch the same rows
     * again, which pushes no new line in), spread over the sets at random (B rows lie at random
     * places; a set's count is Poisson with that mean over the sets). A fully associative cache
     * ({@code sets} 1) is the four-argument form. Against memsim's own set-associative LRU on rows of
     * random columns (RowGatherReuseTest: 10 shapes, 32 KiB 8-way and 48 KiB 12-way) it is within
     * 0.031 of the simulated share (mean 0.007), the four-argument form within 0.088 (mean 0.033:
     * it counts every row's sweep as new lines and keeps a line until the sweeps pass the space).
     */
    public static double hitShare(double spaceBytes, double footprintBytes, double sweepBytes, double touchShare, double lineBytes, int sets) {
        if (sets <= 1 || !(lineBytes > 0) || !(sweepBytes > 0)) return hitShare(spaceBytes, footprintBytes, sweepBytes, touchShare);
        if (!(footprintBytes > spaceBytes)) return 1;
        if (!(spaceBytes > 0)) return 0;
        double p = Math.max(0, Math.min(1, touchShare));
        if (p == 0) return 0;
        int ways = (int) Math.floor(spaceBytes / (sets * lineBytes) + 1e-9);
        if (ways < 1) return 0;
        double linesPerSet = footprintBytes / lineBytes / sets;
        double hit = 0;
        double first = p; // p (1 - p)^(d-1)
        double untouched = 1 - p; // (1 - p)^d
        for (int d = 1; first > 1e-9 && d <= MAX_ROWS; d++, first *= 1 - p, untouched *= 1 - p) {
            hit += first * poissonBelow(linesPerSet * (1 - untouched), ways);
        }
        return Math.min(1, hit);
    }

    /** The most rows apart a reuse is looked for (a touch share of 1e-4 and less). */
    private static final int MAX_ROWS = 200_000;

    /** P[X < k] for X Poisson with the given mean. */
    static double poissonBelow(double mean, int k) {
        double term = Math.exp(-mean);
        double sum = 0;
        for (int j = 0; j < k; j++) {
            sum += term;
            term *= mean / (j + 1);
        }
        return Math.min(1, sum);
    }
}
