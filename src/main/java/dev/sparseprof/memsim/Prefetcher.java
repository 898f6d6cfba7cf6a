package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/**
 * Proposes lines to prefetch after a demand read (ChampSim's prefetcher hook, narrowed).
 *
 * <p>Contract: called once per demand read reference at the level, after it is served, with the
 * line address ({@code address >>> log2(lineBytes)}), whether it missed and the array it touched;
 * writes up to {@code out.length} line addresses into the caller's {@code out} and returns how
 * many. The cache skips lines it already holds and counts the rest apart from demand misses.
 */
public interface Prefetcher {
    int candidates(long line, boolean miss, ArrayRole role, long[] out);
}
