package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The common configuration's fast path ({@code Cache.lruReference}) against the general path: the
 * same hierarchy with 3C classification on, which only adds the 3C counts but takes every level
 * off the fast path, must count every other integer the same, over a random trace of reads,
 * writes (some spanning lines, some whole lines), copy-back and invalidate records, on a
 * power-of-two and a 3-set level, warm-up window included.
 */
class LruFastPathTest {
    private static final ArrayRole[] ROLES = ArrayRole.values();

    @Test
    void fastPathCountsWhatTheGeneralPathCounts() {
        List<CacheConfig> levels = List.of(CacheConfig.of("L1", 2 << 10, 32, 4), CacheConfig.of("L2", 3 * 8 * 64, 64, 8),
                CacheConfig.of("L3", 64 << 10, 64, 16));
        SplittableRandom rnd = new SplittableRandom(11);
        assertSameCounts(levels, 5_000, 200_000, () -> rnd.nextInt(4) == 0 ? 0x100000L + rnd.nextInt(1 << 20) : 0x4000L + rnd.nextInt(1 << 14), rnd);
    }

    /**
     * The first level's two-line filter (a repeat of one of the last two lines, each its set's MRU
     * line): streams that mostly repeat the last or the one-before-last address over a few lines,
     * on a direct-mapped and a 2-way L1 (where the two lines often share a set), over an inclusive
     * L2 whose evictions back-invalidate the L1, so a filtered line must drop out when invalidated.
     */
    @Test
    void lineFilterCountsWhatTheGeneralPathCounts() {
        for (int ways : new int[] {1, 2}) {
            List<CacheConfig> levels = List.of(CacheConfig.of("L1", 8 * 64, 64, ways),
                    CacheConfig.of("L2", 16 * 64, 64, 2).withInclusion(Inclusion.INCLUSIVE), CacheConfig.of("L3", 64 << 10, 64, 16));
            SplittableRandom rnd = new SplittableRandom(ways);
            long[] recent = new long[2];
            assertSameCounts(levels, 1_000, 100_000, () -> {
                int pick = rnd.nextInt(10);
                long a = pick < 4 ? recent[1] : pick < 7 ? recent[0] : 64L * rnd.nextInt(40) + 4 * rnd.nextInt(16);
                if (a != recent[1]) {
                    recent[0] = recent[1];
                    recent[1] = a;
                }
                return a;
            }, rnd);
        }
    }

    /**
     * Replays one random trace (reads, writes, some spanning lines, some whole lines, copy-back and
     * invalidate records; addresses from {@code addresses}) through {@code levels} as given and
     * with 3C classification on everywhere, which keeps every level off the fast path, and compares
     * every count but the 3C ones, warm-up window included.
     */
    private static void assertSameCounts(List<CacheConfig> levels, long warmup, int accesses, LongSupplier addresses, SplittableRandom rnd) {
        Hierarchy fast = new Hierarchy(HierarchyConfig.of(levels));
        Hierarchy general = new Hierarchy(HierarchyConfig.of(levels.stream().map(c -> c.withClassifyMisses(true)).toList()));
        fast.setWarmup(warmup);
        general.setWarmup(warmup);
        for (int i = 0; i < accesses; i++) {
            int pick = rnd.nextInt(1000);
            AccessKind kind = pick < 650 ? AccessKind.READ : pick < 990 ? AccessKind.WRITE : pick < 995 ? AccessKind.COPY_BACK : AccessKind.INVALIDATE;
            long address = addresses.getAsLong();
            int size = rnd.nextInt(10) == 0 ? 64 : rnd.nextInt(10) == 0 ? 1 + rnd.nextInt(100) : 4;
            if (size == 64) address &= ~63L;
            ArrayRole role = ROLES[rnd.nextInt(ROLES.length)];
            fast.access(kind, address, size, role);
            general.access(kind, address, size, role);
        }
        fast.close();
        general.close();
        HierarchyStats a = fast.measured();
        HierarchyStats b = general.measured();
        assertEquals(b.accesses(), a.accesses());
        // every access once, split or not, records included, less the warm-up window
        assertEquals(accesses, fast.snapshot().accesses());
        assertEquals(accesses - warmup, a.accesses());
        for (int l = 0; l < levels.size(); l++) {
            LevelStats x = a.levels().get(l);
            LevelStats y = b.levels().get(l);
            String at = x.name();
            assertEquals(y.fetches(), x.fetches(), at);
            assertEquals(y.misses(), x.misses(), at);
            assertEquals(y.blockMisses(), x.blockMisses(), at);
            assertEquals(y.writeBacks(), x.writeBacks(), at);
            assertEquals(y.bytesFromBelow(), x.bytesFromBelow(), at);
            assertEquals(y.bytesToBelow(), x.bytesToBelow(), at);
            assertEquals(y.backInvalidations(), x.backInvalidations(), at);
            assertArrayEquals(y.roles().accesses(), x.roles().accesses(), at);
            assertArrayEquals(y.roles().misses(), x.roles().misses(), at);
            assertArrayEquals(y.roles().writeBacks(), x.roles().writeBacks(), at);
        }
        assertEquals(b.memory(), a.memory());
    }

    @Test
    void setIndexByReciprocalIsTheRemainder() {
        SplittableRandom rnd = new SplittableRandom(5);
        int[] sets = {1, 3, 7, 12, 24, 57344, 1000003, Integer.MAX_VALUE};
        for (int d : sets) {
            long reciprocal = Long.divideUnsigned(-1L, d) + 1;
            long[] edges = {0, 1, d - 1L, d, 0xFFFFFFFFL, 0x100000000L, Long.MAX_VALUE >>> 6};
            for (long line : edges) assertEquals(Long.remainderUnsigned(line, d), Cache.remainder(line, d, reciprocal), d + " " + line);
            for (int k = 0; k < 10_000; k++) {
                long line = k % 2 == 0 ? rnd.nextLong(1L << 32) : rnd.nextLong(Long.MAX_VALUE >>> 6);
                assertEquals(Long.remainderUnsigned(line, d), Cache.remainder(line, d, reciprocal), d + " " + line);
            }
        }
    }
}
