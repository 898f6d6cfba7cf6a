package dev.sparseprof.kernel;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;

/** Counts accesses and bytes per (kind, role); checks addresses lie in the expected role's array. */
final class CountingSink implements TraceSink {
    final long[][] accesses = new long[AccessKind.values().length][ArrayRole.COUNT];
    final long[][] bytes = new long[AccessKind.values().length][ArrayRole.COUNT];
    long minAddress = Long.MAX_VALUE;

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        if (sizeBytes < 1) throw new AssertionError("size " + sizeBytes);
        accesses[kind.ordinal()][role.ordinal()]++;
        bytes[kind.ordinal()][role.ordinal()] += sizeBytes;
        minAddress = Math.min(minAddress, address);
    }

    long reads(ArrayRole role) { return accesses[AccessKind.READ.ordinal()][role.ordinal()]; }

    long writes(ArrayRole role) { return accesses[AccessKind.WRITE.ordinal()][role.ordinal()]; }

    long readBytes(ArrayRole role) { return bytes[AccessKind.READ.ordinal()][role.ordinal()]; }

    long writeBytes(ArrayRole role) { return bytes[AccessKind.WRITE.ordinal()][role.ordinal()]; }
}
