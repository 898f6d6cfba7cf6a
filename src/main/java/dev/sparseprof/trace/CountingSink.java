package dev.sparseprof.trace;

/**
 * Counts accesses and bytes per {@link AccessKind} and per {@link ArrayRole}; a cheap summary of a
 * trace and the oracle for tests of kernels' traced twins.
 */
public final class CountingSink implements TraceSink {
    private final long[] byKindRole = new long[AccessKind.values().length * ArrayRole.COUNT];
    private final long[] bytesByKindRole = new long[byKindRole.length];

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        int i = kind.ordinal() * ArrayRole.COUNT + role.ordinal();
        byKindRole[i]++;
        bytesByKindRole[i] += sizeBytes;
    }

    public long count(AccessKind kind, ArrayRole role) {
        return byKindRole[kind.ordinal() * ArrayRole.COUNT + role.ordinal()];
    }

    public long bytes(AccessKind kind, ArrayRole role) {
        return bytesByKindRole[kind.ordinal() * ArrayRole.COUNT + role.ordinal()];
    }

    public long count(AccessKind kind) {
        long s = 0;
        for (ArrayRole r : AccessKinds.ROLES) s += count(kind, r);
        return s;
    }

    public long count(ArrayRole role) {
        long s = 0;
        for (AccessKind k : AccessKinds.BY_ORDINAL) s += count(k, role);
        return s;
    }

    public long total() {
        long s = 0;
        for (long c : byKindRole) s += c;
        return s;
    }

    public long totalBytes() {
        long s = 0;
        for (long c : bytesByKindRole) s += c;
        return s;
    }
}
