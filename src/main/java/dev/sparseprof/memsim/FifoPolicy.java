package dev.sparseprof.memsim;

/** First in, first out: only fills move a way to the front; hits change nothing (Dinero's {@code -repl f}). */
public final class FifoPolicy implements ReplacementPolicy {
    private final RecencyList list;

    public FifoPolicy(int sets, int ways, long seed) {
        list = new RecencyList(sets, ways);
    }

    @Override
    public int victim(int set) {
        return list.tail(set);
    }

    @Override
    public void onHit(int set, int way) {
        // FIFO ignores hits
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
