package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/** The running counts of one cache; {@link #snapshot} freezes them into {@link LevelStats}. */
final class CacheCounters {
    private final String name;
    private final long[] fetches = new long[2];
    private final long[] misses = new long[2];
    private final long[] blockMisses = new long[2];
    private final long[] roleAccesses = new long[ArrayRole.COUNT];
    private final long[] roleMisses = new long[ArrayRole.COUNT];
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
        fetches[write]++;
        roleAccesses[role]++;
        if (miss) {
            misses[write]++;
            roleMisses[role]++;
            if (blockMiss) blockMisses[write]++;
        }
    }

    void writeBack(int role, int bytes) {
        writeBacks++;
        roleWriteBacks[role]++;
        bytesToBelow += bytes;
    }

    LevelStats snapshot() {
        return new LevelStats(name, new ReadWrite(fetches[0], fetches[1]), new ReadWrite(misses[0], misses[1]),
                new ReadWrite(blockMisses[0], blockMisses[1]), writeBacks, bytesFromBelow, bytesToBelow, victimsIn,
                backInvalidations, prefetchesIssued, prefetchesUseful,
                classified ? new ThreeC(compulsory, capacity, conflict) : ThreeC.ZERO,
                new RoleCounts(roleAccesses, roleMisses, roleWriteBacks));
    }
}
