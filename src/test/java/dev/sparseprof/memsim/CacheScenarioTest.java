package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.SparseprofException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hand-checkable scenarios (ChampSim style) for what Dinero does not have: a few accesses, a known outcome. */
class CacheScenarioTest {
    static final int LINE = 64;

    static Hierarchy one(CacheConfig c) {
        return new Hierarchy(HierarchyConfig.of(c));
    }

    static void read(Hierarchy h, long line) {
        h.access(AccessKind.READ, line * LINE, 4, ArrayRole.VALUES);
    }

    static void write(Hierarchy h, long line) {
        h.access(AccessKind.WRITE, line * LINE, 4, ArrayRole.C_SCATTER);
    }

    /** Misses of a one-set cache of {@code ways} lines after reading {@code lines} in order. */
    static long misses(String policy, int ways, long... lines) {
        Hierarchy h = one(CacheConfig.of("L1", (long) ways * LINE, LINE, ways).withPolicy(policy));
        for (long l : lines) read(h, l);
        return h.snapshot().level("L1").misses().total();
    }

    @Test
    void lruEvictsLeastRecentFifoEvictsOldest() {
        // 2 ways: A B A C A. LRU: C evicts B, A hits (3 misses). FIFO: C evicts A, A misses (4).
        assertEquals(3, misses("lru", 2, 0, 1, 0, 2, 0));
        assertEquals(4, misses("fifo", 2, 0, 1, 0, 2, 0));
    }

    @Test
    void treePlruDiffersFromLruWhereTheTreeSaysSo() {
        // 4 ways: A B C D A E B. After A B C D A the tree points right then at C (way 2): E evicts C and
        // B still hits (5 misses); true LRU evicts B, which then misses (6).
        assertEquals(6, misses("lru", 4, 0, 1, 2, 3, 0, 4, 1));
        assertEquals(5, misses("plru", 4, 0, 1, 2, 3, 0, 4, 1));
        assertEquals(6, misses("plru", 4, 0, 1, 2, 3, 0, 4, 1, 2)); // ...and C is gone
    }

    @Test
    void treePlruWorksForTwelveWays() {
        // Zen 5 L1d shape: 48 KiB, 12 ways, 64 sets. 12 lines of set 0 fit; the 13th evicts one of them.
        Hierarchy h = one(CacheConfig.of("L1", 48 << 10, LINE, 12).withPolicy("plru"));
        for (int round = 0; round < 2; round++) for (long i = 0; i < 12; i++) read(h, i * 64);
        assertEquals(12, h.snapshot().level("L1").misses().total());
        read(h, 12 * 64);
        long before = h.snapshot().level("L1").misses().total();
        for (long i = 0; i < 12; i++) read(h, i * 64);
        assertEquals(13, before);
        long after = h.snapshot().level("L1").misses().total();
        assertTrue(after > before && after <= before + 12, "the 13th line evicted one of the 12");
    }

    @Test
    void srripKeepsTheReusedLineThatLruDrops() {
        // 4 ways: A B C D, A again, then the scan E F G H. SRRIP ages A (re-referenced) slower than the
        // scan lines, so A survives H; LRU has evicted it by then.
        long[] seq = {0, 1, 2, 3, 0, 4, 5, 6, 7, 0};
        assertEquals(9, misses("lru", 4, seq));
        assertEquals(8, misses("srrip", 4, seq));
    }

    @Test
    void randomIsRepeatableForASeed() {
        long[] seq = new long[2000];
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < seq.length; i++) seq[i] = r.nextInt(40);
        assertEquals(misses("random", 16, seq), misses("random", 16, seq));
        assertTrue(misses("random", 16, seq) < seq.length);
    }

    @Test
    void nonPowerOfTwoSetCount() {
        // 3 sets x 2 ways: lines 0, 3, 6 share set 0; the third evicts the first.
        Hierarchy h = one(CacheConfig.of("L1", 3 * 2 * LINE, LINE, 2));
        read(h, 0);
        read(h, 3);
        read(h, 1);
        read(h, 6);
        read(h, 3);
        read(h, 0);
        LevelStats s = h.snapshot().level("L1");
        assertEquals(5, s.misses().total()); // 0 3 1 6 miss, 3 hits, 0 misses
    }

    @Test
    void fullyAssociativeThousandWays() {
        Hierarchy h = one(CacheConfig.fullyAssociative("L1", 64 << 10, LINE));
        for (int round = 0; round < 2; round++) for (long i = 0; i < 1024; i++) read(h, i * 7919);
        assertEquals(1024, h.snapshot().level("L1").misses().total());
        read(h, 5_000_000); // evicts the LRU line, line 0
        read(h, 7919);
        read(h, 0);
        assertEquals(1026, h.snapshot().level("L1").misses().total());
    }

    @Test
    void sectorsFetchOnlyTouchedSectorsAndWriteBackOnlyDirtyOnes() {
        // 128-byte lines of 4 x 32-byte sectors, as an NVIDIA L1/L2.
        Hierarchy h = one(CacheConfig.of("L1", 128 * 4, 128, 4).withSectors(4));
        h.access(AccessKind.READ, 0, 4, ArrayRole.VALUES);   // line miss, fetch sector 0
        h.access(AccessKind.READ, 32, 4, ArrayRole.VALUES);  // sector miss, fetch sector 1
        h.access(AccessKind.READ, 4, 4, ArrayRole.VALUES);   // hit
        h.access(AccessKind.WRITE, 64, 4, ArrayRole.VALUES); // sector miss, partial: fetch sector 2, dirty
        h.access(AccessKind.READ, 120, 8, ArrayRole.VALUES); // sector 3 miss
        LevelStats s = h.snapshot().level("L1");
        assertEquals(4, s.misses().total());
        assertEquals(1, s.blockMisses().total());
        assertEquals(4 * 32, s.bytesFromBelow());
        h.close();
        assertEquals(32, h.snapshot().level("L1").bytesToBelow()); // only the dirty sector goes back
    }

    @Test
    void writeThroughNoAllocateSendsEveryWriteDown() {
        Hierarchy h = one(CacheConfig.of("L1", 1024, LINE, 2).withWritePolicy(WritePolicy.WT_NWA));
        write(h, 5); // miss, nothing allocated
        read(h, 5);  // miss
        write(h, 5); // hit, still written through
        h.close();
        LevelStats s = h.snapshot().level("L1");
        assertEquals(new ReadWrite(1, 1), s.misses());
        assertEquals(8, s.bytesToBelow());
        assertEquals(LINE, s.bytesFromBelow());
    }

    static Hierarchy twoLevel(Inclusion l2Inclusion) {
        CacheConfig l1 = CacheConfig.of("L1", 4 * LINE, LINE, 4);
        CacheConfig l2 = CacheConfig.of("L2", 2 * LINE, LINE, 2).withInclusion(l2Inclusion);
        return new Hierarchy(HierarchyConfig.of(l1, l2));
    }

    @Test
    void inclusiveLevelBackInvalidatesAbove() {
        // L1 holds 4 lines, the (inclusive) L2 only 2: reading C makes L2 evict A, which must leave L1 too.
        Hierarchy plain = twoLevel(Inclusion.NON_INCLUSIVE);
        Hierarchy incl = twoLevel(Inclusion.INCLUSIVE);
        for (Hierarchy h : new Hierarchy[] {plain, incl}) {
            write(h, 0);
            read(h, 1);
            read(h, 2);
            read(h, 0);
        }
        assertEquals(3, plain.snapshot().level("L1").misses().total());
        assertEquals(4, incl.snapshot().level("L1").misses().total());
        // C evicts A from L2 (and so from L1); A's return evicts B the same way
        assertEquals(2, incl.snapshot().level("L1").backInvalidations());
        // A was dirty in L1: its data left with L2's victim, straight to memory
        assertEquals(LINE, incl.snapshot().memory().bytes().write());
        assertEquals(0, plain.snapshot().memory().bytes().write());
    }

    @Test
    void exclusiveLevelIsAVictimCache() {
        CacheConfig l1 = CacheConfig.of("L1", 2 * LINE, LINE, 2);
        CacheConfig l3 = CacheConfig.of("L3", 2 * LINE, LINE, 2).withInclusion(Inclusion.EXCLUSIVE);
        Hierarchy h = new Hierarchy(HierarchyConfig.of(l1, l3));
        read(h, 0); // A: misses both, L3 does not keep it
        read(h, 1); // B
        read(h, 2); // C: L1 evicts A into L3
        read(h, 0); // A: L3 hit, moves up; L1 evicts B into L3
        HierarchyStats s = h.snapshot();
        LevelStats x = s.level("L3");
        assertEquals(4, x.fetches().read());
        assertEquals(3, x.misses().read());
        assertEquals(2, x.victimsIn());
        assertEquals(3, s.memory().requests().read());
        read(h, 1); // B: L3 hit again
        assertEquals(3, h.snapshot().memory().requests().read());
    }

    @Test
    void exclusiveLevelWithSmallerLinesTakesWholeVictims() {
        // 128-byte L2 lines over a 64-byte exclusive L3: an L2 victim becomes two L3 lines, both handed back up
        CacheConfig l2 = CacheConfig.of("L2", 128, 128, 1);
        CacheConfig l3 = CacheConfig.of("L3", 8 * 64, 64, 8).withInclusion(Inclusion.EXCLUSIVE);
        Hierarchy h = new Hierarchy(HierarchyConfig.of(l2, l3));
        h.access(AccessKind.READ, 0, 4, ArrayRole.VALUES);   // line 0 of L2: both L3 halves miss
        h.access(AccessKind.READ, 128, 4, ArrayRole.VALUES); // evicts L2 line 0 into L3 as two lines
        assertEquals(2, h.snapshot().level("L3").victimsIn());
        h.access(AccessKind.READ, 0, 4, ArrayRole.VALUES);   // both halves hit in L3
        LevelStats x = h.snapshot().level("L3");
        assertEquals(6, x.fetches().read());
        assertEquals(4, x.misses().read());
        assertEquals(4, h.snapshot().memory().requests().read());
    }

    @Test
    void nextLinePrefetchIsCountedApartFromDemandMisses() {
        Hierarchy h = one(CacheConfig.of("L1", 8 * LINE, LINE, 2).withPrefetcher("next-line"));
        read(h, 10); // miss, prefetches 11
        read(h, 11); // hit on the prefetched line
        LevelStats s = h.snapshot().level("L1");
        assertEquals(1, s.misses().total());
        assertEquals(1, s.prefetchesIssued());
        assertEquals(1, s.prefetchesUseful());
        assertEquals(2 * LINE, s.bytesFromBelow());
    }

    @Test
    void stridePrefetcherFollowsAConfirmedStride() {
        Hierarchy h = one(CacheConfig.of("L1", 64 * LINE, LINE, 4).withPrefetcher("stride"));
        read(h, 0);
        read(h, 3);
        read(h, 6); // stride 3 seen twice: prefetch 9
        read(h, 9);
        LevelStats s = h.snapshot().level("L1");
        assertEquals(3, s.misses().total());
        assertEquals(1, s.prefetchesUseful());
    }

    @Test
    void threeCClassification() {
        // direct-mapped, 2 sets of 1 line
        CacheConfig dm = CacheConfig.of("L1", 2 * LINE, LINE, 1).withClassifyMisses(true);
        Hierarchy h = one(dm);
        read(h, 0);
        read(h, 2);
        read(h, 0); // a 2-line fully associative cache would hit: conflict
        assertEquals(new ThreeC(2, 0, 1), h.snapshot().level("L1").threeC());
        Hierarchy c = one(dm);
        for (long l : new long[] {0, 1, 2, 0}) read(c, l); // 0 would be gone from the 2-line LRU too: capacity
        assertEquals(new ThreeC(3, 1, 0), c.snapshot().level("L1").threeC());
    }

    @Test
    void warmupWindowIsTheDifferenceOfSnapshots() {
        Hierarchy h = one(CacheConfig.of("L1", 4 * LINE, LINE, 4));
        for (long l = 0; l < 4; l++) read(h, l); // warm-up: 4 compulsory misses
        HierarchyStats warm = h.snapshot();
        for (long l = 0; l < 5; l++) read(h, l); // 4 hits, 1 miss
        HierarchyStats window = h.snapshot().minus(warm);
        assertEquals(5, window.accesses());
        assertEquals(5, window.level("L1").fetches().read());
        assertEquals(1, window.level("L1").misses().read());
        assertEquals(4, window.level("L1").hits());
    }

    @Test
    void perArrayCounts() {
        Hierarchy h = one(CacheConfig.of("L1", 4 * LINE, LINE, 4));
        h.access(AccessKind.READ, 0, 4, ArrayRole.COLUMN_INDICES);
        h.access(AccessKind.READ, 4, 4, ArrayRole.COLUMN_INDICES);
        h.access(AccessKind.READ, 4096, 4, ArrayRole.B_GATHER);
        RoleCounts r = h.snapshot().level("L1").roles();
        assertEquals(2, r.accesses(ArrayRole.COLUMN_INDICES));
        assertEquals(1, r.misses(ArrayRole.COLUMN_INDICES));
        assertEquals(1, r.misses(ArrayRole.B_GATHER));
    }

    @Test
    void accessesCrossingLinesAreSplit() {
        Hierarchy h = one(CacheConfig.of("L1", 4 * LINE, LINE, 4));
        h.access(AccessKind.READ, 60, 8, ArrayRole.VALUES);
        assertEquals(2, h.snapshot().level("L1").fetches().read());
        assertEquals(2, h.snapshot().level("L1").misses().read());
    }

    @Test
    void impossibleConfigsNameTheFault() {
        var e = assertThrows(SparseprofException.class, () -> CacheConfig.of("L1", 48 << 10, 48, 12));
        assertEquals("L1: line size 48 B is not a power of two of at least 4", e.getMessage());
        e = assertThrows(SparseprofException.class, () -> CacheConfig.of("L2", 48 << 10, 64, 7));
        assertEquals("L2: size 48.00 KiB is not a multiple of line 64 B x 7 ways", e.getMessage());
        e = assertThrows(SparseprofException.class, () -> CacheConfig.of("L3", 1 << 20, 64, 0));
        assertEquals("L3: associativity must be at least 1 way, got 0", e.getMessage());
        e = assertThrows(SparseprofException.class, () -> CacheConfig.of("L1", 1024, 64, 2).withPolicy("mru"));
        assertTrue(e.getMessage().startsWith("L1: unknown replacement policy 'mru' (known: lru, fifo, random, plru, srrip)"));
    }
}
