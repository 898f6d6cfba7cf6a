package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/**
 * The running counts of one cache; {@link #snapshot} freezes them into {@link LevelStats}. Fetches
 * and misses are kept per (role, read/write) pair only, at {@code 2 * role + write}, so a hit costs
 * one increment; the per-kind and per-role totals are summed at snapshot time.
 */
final class CacheCounters {
    private final String name;
    private final long[] roleFetches = new long[2 * ArrayRole.COUNT];
    private final long[] roleMisses = new long[2 * ArrayRole.COUNT];
    private final long[] blockMisses = new long[2];
    private final long[] roleWriteBacks = new long[ArrayRole.COUNT];
    long writeBacks;
    long bytesFromBelow;
    long bytesToBelow;
    long victimsIn;
    long backInvalidations;
    long prefetchesIssued;
    long prefetchesUseful;
    long compulsory;
    long capacity;
    long conflict;
    private final boolean classified;

    CacheCounters(String name, boolean classified) {
        this.name = name;
        this.classified = classified;
    }

    void reference(int write, int role, boolean miss, boolean blockMiss) {
        roleFetches[2 * role + write]++;
        if (miss) {
            roleMisses[2 * role + write]++;
            if (blockMiss) blockMisses[write]++;
        }
    }

    /** The live fetch counts at {@code 2 * role + write}, for a cache's hit path to increment directly. */
    long[] fetchCounts() {
        return roleFetches;
    }

    /** A miss where the line was absent (counted as a fetch, a miss and a block miss). */
    void blockMiss(int write, int role) {
        roleFetches[2 * role + write]++;
        roleMisses[2 * role + write]++;
        blockMisses[write]++;
    }

    /** All references counted so far, reads and writes. */
    long fetchTotal() {
        long n = 0;
        for (long f : roleFetches) n += f;
        return n;
    }

    void writeBack(int role, int bytes) {
        writeBacks++;
        roleWriteBacks[role]++;
        bytesToBelow += bytes;
    }

    LevelStats snapshot() {
        long[] fetches = new long[2];
        long[] misses = new long[2];
        long[] roleAccesses = new long[ArrayRole.COUNT];
        long[] roleMissTotals = new long[ArrayRole.COUNT];
        for (int role = 0; role < ArrayRole.COUNT; role++) {
            for (int write = 0; write < 2; write++) {
                fetches[write] += roleFetches[2 * role + write];
                misses[write] += roleMisses[2 * role + write];
                roleAccesses[role] += roleFetches[2 * role + write];
                roleMissTotals[role] += roleMisses[2 * role + write];
            }
        }
        return new LevelStats(name, new ReadWrite(fetches[0], fetches[1]), new ReadWrite(misses[0], misses[1]),
                new ReadWrite(blockMisses[0], blockMisses[1]), writeBacks, bytesFromBelow, bytesToBelow, victimsIn,
                backInvalidations, prefetchesIssued, prefetchesUseful,
                classified ? new ThreeC(compulsory, capacity, conflict) : ThreeC.ZERO,
                new RoleCounts(roleAccesses, roleMissTotals, roleWriteBacks));
    }
}
