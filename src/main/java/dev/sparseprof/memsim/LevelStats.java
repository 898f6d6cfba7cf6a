package dev.sparseprof.memsim;

/**
 * One cache's counts, in Dinero's sense where Dinero has the number: {@code fetches} are the
 * references the level saw (demand accesses from the core or the level above, write-backs from
 * above included), {@code misses} count sector misses too ({@code blockMisses} only those where the
 * line was absent), {@code bytesFromBelow}/{@code bytesToBelow} are Dinero's "bytes from/to memory"
 * (what this level read from and wrote to the next one). {@code victimsIn} are lines an exclusive
 * level received from above; {@code threeC} is {@link ThreeC#ZERO} unless classification was on.
 */
public record LevelStats(String name, ReadWrite fetches, ReadWrite misses, ReadWrite blockMisses,
                         long writeBacks, long bytesFromBelow, long bytesToBelow, long victimsIn,
                         long backInvalidations, long prefetchesIssued, long prefetchesUseful,
                         ThreeC threeC, RoleCounts roles) {
    public long hits() {
        return fetches.total() - misses.total();
    }

    public double hitRate() {
        return fetches.total() == 0 ? 0.0 : (double) hits() / fetches.total();
    }

    public double missRate() {
        return fetches.total() == 0 ? 0.0 : (double) misses.total() / fetches.total();
    }

    /** The counts of the window after {@code earlier} (a snapshot of the same level taken before). */
    public LevelStats minus(LevelStats earlier) {
        return new LevelStats(name, fetches.minus(earlier.fetches), misses.minus(earlier.misses),
                blockMisses.minus(earlier.blockMisses), writeBacks - earlier.writeBacks,
                bytesFromBelow - earlier.bytesFromBelow, bytesToBelow - earlier.bytesToBelow,
                victimsIn - earlier.victimsIn, backInvalidations - earlier.backInvalidations,
                prefetchesIssued - earlier.prefetchesIssued, prefetchesUseful - earlier.prefetchesUseful,
                threeC.minus(earlier.threeC), roles.minus(earlier.roles));
    }
}
