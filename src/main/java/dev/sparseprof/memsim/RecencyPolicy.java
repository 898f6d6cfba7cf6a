package dev.sparseprof.memsim;

/**
 * Replacement by recency order: the victim is the tail of the set's {@link RecencyList}. As
 * {@link #lru} hits and fills move a way to the front (Dinero's {@code -repl l}); as {@link #fifo}
 * only fills do (Dinero's {@code -repl f}).
 */
public final class RecencyPolicy implements ReplacementPolicy {
    private final RecencyList list;
    private final boolean promoteOnHit;

    private RecencyPolicy(int sets, int ways, boolean promoteOnHit) {
        this.list = new RecencyList(sets, ways);
        this.promoteOnHit = promoteOnHit;
    }

    /** Least recently used. */
    public static RecencyPolicy lru(int sets, int ways, long seed) {
        return new RecencyPolicy(sets, ways, true);
    }

    /** First in, first out. */
    public static RecencyPolicy fifo(int sets, int ways, long seed) {
        return new RecencyPolicy(sets, ways, false);
    }

    /** The recency order itself, for a cache's LRU fast path (null for FIFO, which a hit must not touch). */
    RecencyList lruList() {
        return promoteOnHit ? list : null;
    }

    @Override
    public int victim(int set) {
        return list.tail(set);
    }

    @Override
    public void onHit(int set, int way) {
        if (promoteOnHit) list.toFront(set, way);
    }

    @Override
    public void onFill(int set, int way) {
        list.toFront(set, way);
    }

    @Override
    public void onInvalidate(int set, int way) {
        list.remove(set, way);
    }

    @Override
    public int evictionOrder(int set, int[] out) {
        return list.fromTail(set, out);
    }
}
