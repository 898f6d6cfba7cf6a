package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/**
 * A stride detector per array (the trace's {@link ArrayRole} stands in for the load PC a
 * hardware stride prefetcher keys on): when the same non-zero line stride is seen twice in a row
 * for an array, prefetch the next line along it.
 */
public final class StridePrefetcher implements Prefetcher {
    private final long[] lastLine = new long[ArrayRole.COUNT];
    private final long[] lastStride = new long[ArrayRole.COUNT];
    private final boolean[] seen = new boolean[ArrayRole.COUNT];

    @Override
    public int candidates(long line, boolean miss, ArrayRole role, long[] out) {
        int r = role.ordinal();
        if (!seen[r]) {
            seen[r] = true;
            lastLine[r] = line;
            return 0;
        }
        long stride = line - lastLine[r];
        if (stride == 0) return 0; // same line again: no new information
        boolean confirmed = stride == lastStride[r];
        lastStride[r] = stride;
        lastLine[r] = line;
        if (!confirmed) return 0;
        out[0] = line + stride;
        return 1;
    }
}
