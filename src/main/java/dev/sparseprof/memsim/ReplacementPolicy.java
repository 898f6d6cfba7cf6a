package dev.sparseprof.memsim;

/**
 * Chooses which way of a full set to evict (ChampSim's narrow replacement hook).
 *
 * <p>Contract: the cache calls {@link #onFill} when a way receives a new line (after a miss, a
 * prefetch or an exclusive-cache insert), {@link #onHit} on every demand hit, {@link #onInvalidate}
 * when a way is emptied without refill, and {@link #victim} only when every way of the set is
 * valid; the answer must be a way in {@code [0, ways)}. Implementations keep their state in
 * primitive arrays sized at construction and allocate nothing per call.
 */
public interface ReplacementPolicy {
    int victim(int set);

    void onHit(int set, int way);

    void onFill(int set, int way);

    void onInvalidate(int set, int way);

    /**
     * True when a hit on the way last hit or filled in its set changes no state (LRU, FIFO,
     * tree-PLRU, random); the cache then serves such hits without calling the policy.
     */
    default boolean repeatedHitIsNoOp() {
        return true;
    }

    /**
     * Writes the ways of {@code set} in eviction order (next victim first) into {@code out} and
     * returns how many; the final write-back walks lines in this order, as Dinero walks its LRU
     * stack. Policies without a total order list the ways by index.
     */
    default int evictionOrder(int set, int[] out) {
        for (int w = 0; w < out.length; w++) out[w] = w;
        return out.length;
    }

    /** Makes a policy for a cache of {@code sets} x {@code ways}; {@code seed} feeds random policies. */
    @FunctionalInterface
    interface Factory {
        ReplacementPolicy create(int sets, int ways, long seed);
    }
}
