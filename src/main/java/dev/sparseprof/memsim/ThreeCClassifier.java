package dev.sparseprof.memsim;

/**
 * Classifies one cache's misses as compulsory, capacity or conflict, as Dinero's {@code -ccc}
 * does: a fully associative LRU shadow of the same number of lines sees every reference, and a
 * set of every line ever touched stands for the infinite cache.
 */
final class ThreeCClassifier {
    private final FullyAssociativeLru shadow;
    private final LongIntHashMap everSeen = new LongIntHashMap(1 << 12);

    ThreeCClassifier(int lines) {
        shadow = new FullyAssociativeLru(lines);
    }

    void reference(long line, boolean miss, CacheCounters counters) {
        boolean shadowHit = shadow.access(line);
        boolean firstTouch = everSeen.get(line) == LongIntHashMap.MISSING;
        if (firstTouch) everSeen.put(line, 1);
        if (!miss) return;
        if (shadowHit) counters.conflict++;
        else if (firstTouch) counters.compulsory++;
        else counters.capacity++;
    }
}
