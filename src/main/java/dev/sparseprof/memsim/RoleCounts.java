package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/** Accesses, misses and write-backs per {@link ArrayRole} (indexed by ordinal). */
public record RoleCounts(long[] accesses, long[] misses, long[] writeBacks) {
    public RoleCounts {
        if (accesses.length != ArrayRole.COUNT || misses.length != ArrayRole.COUNT || writeBacks.length != ArrayRole.COUNT) {
            throw new IllegalArgumentException("role counts need " + ArrayRole.COUNT + " entries");
        }
        accesses = accesses.clone();
        misses = misses.clone();
        writeBacks = writeBacks.clone();
    }

    @Override
    public long[] accesses() {
        return accesses.clone();
    }

    @Override
    public long[] misses() {
        return misses.clone();
    }

    @Override
    public long[] writeBacks() {
        return writeBacks.clone();
    }

    public long accesses(ArrayRole r) {
        return accesses[r.ordinal()];
    }

    public long misses(ArrayRole r) {
        return misses[r.ordinal()];
    }

    public long writeBacks(ArrayRole r) {
        return writeBacks[r.ordinal()];
    }

    public RoleCounts minus(RoleCounts o) {
        long[] a = new long[ArrayRole.COUNT];
        long[] m = new long[ArrayRole.COUNT];
        long[] w = new long[ArrayRole.COUNT];
        for (int i = 0; i < a.length; i++) {
            a[i] = accesses[i] - o.accesses[i];
            m[i] = misses[i] - o.misses[i];
            w[i] = writeBacks[i] - o.writeBacks[i];
        }
        return new RoleCounts(a, m, w);
    }
}
