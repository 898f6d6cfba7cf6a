package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/** On a demand miss to line L, prefetch L+1. */
public final class NextLinePrefetcher implements Prefetcher {
    @Override
    public int candidates(long line, boolean miss, ArrayRole role, long[] out) {
        if (!miss) return 0;
        out[0] = line + 1;
        return 1;
    }
}
