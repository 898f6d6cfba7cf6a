package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.trace.ArrayRole;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** LRU's share of a row sweep's reuse, against the uniform share, and against the simulator itself. */
class RowGatherReuseTest {
    private static final double L1 = 48 << 10;

    @Test
    void shortRowsKeepAboutTheUniformShareLongRowsKeepNothing() {
        double b = 384 * 512.0; // B of 384 rows of 128 fp32
        // 48 of 384 columns: two rows' sweeps fit, 1 - (7/8)^2
        assertEquals(1 - Math.pow(0.875, 2), RowGatherReuse.hitShare(L1, b, 48 * 512.0, 48 / 384.0), 1e-12);
        assertEquals(0.25, L1 / b, 1e-12);
        // a 2:4 row sweeps 96 KiB, twice the cache: LRU hits none of it
        assertEquals(0, RowGatherReuse.hitShare(L1, b, 192 * 512.0, 0.5));
        // a footprint that fits is always hit; no sweep given: the uniform share
        assertEquals(1, RowGatherReuse.hitShare(L1, 24 << 10, 192 * 64.0, 0.5));
        assertEquals(L1 / b, RowGatherReuse.hitShare(L1, b, 0, 0), 1e-12);
        assertEquals(0, RowGatherReuse.hitShare(0, b, 1, 1));
    }

    @Test
    void theSimulatedLruCacheAgreesWithTheShare() {
        // rows of random columns in ascending order over a B of 384 rows of 512 B, through a 48 KiB 12-way LRU L1
        for (int len : new int[] {24, 48, 192}) {
            Cache l1 = new Cache(CacheConfig.of("L1", 48 << 10, 64, 12), new Memory(null));
            Random r = new Random(len);
            LevelStats warm = null;
            for (int row = 0; row < 2000; row++) {
                if (row == 100) warm = l1.snapshot();
                boolean[] take = new boolean[384];
                for (int i = 0; i < len; ) {
                    int c = r.nextInt(384);
                    if (!take[c]) { take[c] = true; i++; }
                }
                for (int c = 0; c < 384; c++) {
                    if (!take[c]) continue;
                    for (int line = 0; line < 8; line++) l1.access(false, (long) c * 512 + line * 64L, 64, ArrayRole.B_GATHER);
                }
            }
            LevelStats end = l1.snapshot();
            double simulated = (double) (end.hits() - warm.hits()) / (end.fetches().total() - warm.fetches().total());
            double share = RowGatherReuse.hitShare(48 << 10, 384 * 512.0, len * 512.0, len / 384.0);
            assertTrue(Math.abs(simulated - share) < 0.06, len + ": simulated " + simulated + ", share " + share);
        }
    }

    /**
     * The set-associative share against memsim's set-associative LRU, on rows of random columns in
     * ascending order (B rows of 128-512 B at K = 384-1536, 24-192 entries a row, 32 KiB 8-way and
     * 48 KiB 12-way): within 0.035 everywhere (0.031 at worst, high-density short rows), where the fully associative form misses by up to 0.09
     * (it counts every row's sweep as new lines, and keeps a line until the sweeps pass the space).
     */
    @Test
    void theSetAssociativeShareFollowsTheSimulatedSetAssociativeCache() {
        int[][] shapes = { // B rows, B row bytes, entries a row, L1 KiB, ways
            {1024, 256, 96, 32, 8}, {384, 256, 192, 32, 8}, {384, 256, 38, 32, 8}, {384, 512, 38, 32, 8}, {384, 512, 192, 32, 8},
            {384, 512, 24, 48, 12}, {384, 512, 48, 48, 12}, {384, 128, 192, 32, 8}, {1536, 256, 154, 32, 8}, {384, 256, 96, 32, 8}};
        double worstFull = 0;
        for (int[] c : shapes) {
            int k = c[0], rowBytes = c[1], len = c[2], ways = c[4];
            long size = (long) c[3] << 10;
            double simulated = simulatedShare(k, rowBytes, len, size, ways);
            double set = RowGatherReuse.hitShare(size, (double) k * rowBytes, (double) len * rowBytes, (double) len / k, 64, (int) (size / (64L * ways)));
            double full = RowGatherReuse.hitShare(size, (double) k * rowBytes, (double) len * rowBytes, (double) len / k);
            String where = k + " rows of " + rowBytes + " B, " + len + " a row, " + c[3] + " KiB " + ways + "-way: simulated " + simulated;
            assertTrue(Math.abs(set - simulated) < 0.035, where + ", set-associative " + set);
            worstFull = Math.max(worstFull, Math.abs(full - simulated));
        }
        assertTrue(worstFull > 0.06, "the fully associative form misses some shape by more: " + worstFull);
        // one set: the fully associative form
        assertEquals(RowGatherReuse.hitShare(L1, 384 * 512.0, 48 * 512.0, 0.125), RowGatherReuse.hitShare(L1, 384 * 512.0, 48 * 512.0, 0.125, 64, 1));
        assertEquals(1, RowGatherReuse.hitShare(L1, 24 << 10, 192 * 64.0, 0.5, 64, 64), "a footprint that fits");
    }

    /** memsim's hit share of B's lines over 3000 rows after 200 of warm-up. */
    private static double simulatedShare(int k, int rowBytes, int len, long size, int ways) {
        Cache l1 = new Cache(CacheConfig.of("L1", size, 64, ways), new Memory(null));
        Random r = new Random(len * 31L + k);
        LevelStats warm = null;
        for (int row = 0; row < 3000; row++) {
            if (row == 200) warm = l1.snapshot();
            boolean[] take = new boolean[k];
            for (int i = 0; i < len; ) {
                int col = r.nextInt(k);
                if (!take[col]) { take[col] = true; i++; }
            }
            for (int col = 0; col < k; col++) {
                if (!take[col]) continue;
                for (int line = 0; line < rowBytes / 64; line++) l1.access(false, (long) col * rowBytes + line * 64L, 64, ArrayRole.B_GATHER);
            }
        }
        LevelStats end = l1.snapshot();
        return (double) (end.hits() - warm.hits()) / (end.fetches().total() - warm.fetches().total());
    }
}
