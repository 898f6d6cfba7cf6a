package dev.sparseprof.memsim;

import java.util.SplittableRandom;

/** A uniformly random victim from a seeded generator, so runs repeat exactly. */
public final class RandomPolicy implements ReplacementPolicy {
    private final int ways;
    private final SplittableRandom random;

    public RandomPolicy(int sets, int ways, long seed) {
        this.ways = ways;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public int victim(int set) {
        return random.nextInt(ways);
    }

    @Override
    public void onHit(int set, int way) {
        // no state
    }

    @Override
    public void onFill(int set, int way) {
        // no state
    }

    @Override
    public void onInvalidate(int set, int way) {
        // no state
    }
}
