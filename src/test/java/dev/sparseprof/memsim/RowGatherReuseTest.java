package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
            java.util.Random r = new java.util.Random(len);
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
                    for (int line = 0; line < 8; line++) l1.access(false, (long) c * 512 + line * 64L, 64, dev.sparseprof.trace.ArrayRole.B_GATHER);
                }
            }
            LevelStats end = l1.snapshot();
            double simulated = (double) (end.hits() - warm.hits()) / (end.fetches().total() - warm.fetches().total());
            double share = RowGatherReuse.hitShare(48 << 10, 384 * 512.0, len * 512.0, len / 384.0);
            assertTrue(Math.abs(simulated - share) < 0.06, len + ": simulated " + simulated + ", share " + share);
        }
    }
}
