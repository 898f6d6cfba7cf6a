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
}
