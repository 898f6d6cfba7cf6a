package dev.sparseprof.memsim;

/** Least recently used: hits and fills move a way to the front; the victim is the tail (Dinero's {@code -repl l}). */
public final class LruPolicy implements ReplacementPolicy {
    private final RecencyList list;

    public LruPolicy(int sets, int ways, long seed) {
        list = new RecencyList(sets, ways);
    }

    @Override
    public int victim(int set) {
        return list.tail(set);
    }

    @Override
    public void onHit(int set, int way) {
        list.toFront(set, way);
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
