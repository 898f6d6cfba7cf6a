package dev.sparseprof.memsim;

/**
 * Misses split as Hill's 3C (Dinero's {@code -ccc}): compulsory (first touch of the line),
 * capacity (would miss in a fully associative LRU cache of the same size too) and conflict
 * (would hit there).
 */
public record ThreeC(long compulsory, long capacity, long conflict) {
    public static final ThreeC ZERO = new ThreeC(0, 0, 0);

    public long total() {
        return compulsory + capacity + conflict;
    }

    public ThreeC minus(ThreeC o) {
        return new ThreeC(compulsory - o.compulsory, capacity - o.capacity, conflict - o.conflict);
    }
}
