package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.sparse.stats.Lengths;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Hand-checked load-balance scenarios. */
class LoadBalanceTest {
    @Test
    void uniformRowsAreBalancedEverywhere() {
        Lengths rows = Lengths.of(new int[] {9, 9, 9, 9, 9, 9, 9, 9});
        assertEquals(1.0, LoadBalance.staticRows(rows, 1, 4).factor(), 1e-12);
        assertEquals(1.0, LoadBalance.nnzBalanced(rows, 1, 4).factor(), 1e-12);
        assertEquals(1.0, LoadBalance.mergePath(rows, 1, 4).factor(), 1e-12);
    }

    @Test
    void oneHeavyRowHurtsStaticRowsMostAndMergePathNot() {
        // Work per row = nnz + 1: 100, then seven rows of 1. Total 107, mean over 2 threads 53.5.
        Lengths rows = Lengths.of(new int[] {99, 0, 0, 0, 0, 0, 0, 0});
        Balance s = LoadBalance.staticRows(rows, 1, 2);
        assertEquals(103, s.maxWork(), 1e-12); // rows 0-3: 100 + 3
        assertEquals(103 / 53.5, s.factor(), 1e-12);
        Balance n = LoadBalance.nnzBalanced(rows, 1, 2);
        assertEquals(100, n.maxWork(), 1e-12); // the heavy row alone; a row is never split
        assertEquals(100 / 53.5, n.factor(), 1e-12);
        Balance mp = LoadBalance.mergePath(rows, 1, 2);
        assertEquals(54 / 53.5, mp.factor(), 1e-12);
    }

    @Test
    void tileWavesCountTheLastWave() {
        assertEquals(1.0, LoadBalance.tileWaves(216, 108).factor(), 1e-12);
        assertEquals(2 * 108 / 109.0, LoadBalance.tileWaves(109, 108).factor(), 1e-12);
        assertEquals(108 / 48.0, LoadBalance.tileWaves(48, 108).factor(), 1e-12);
    }

    @Test
    void gpuRowSplitSeesTheTailAndLongRows() {
        int[] even = new int[108 * 4];
        Arrays.fill(even, 31);
        assertEquals(1.0, LoadBalance.gpuRowSplit(Lengths.of(even), 1, 108).factor(), 1e-12);
        // One more block than SMs: the busiest SM has two blocks, the mean is (109/108) blocks.
        int[] tail = new int[109 * 4];
        Arrays.fill(tail, 31);
        assertEquals(2 * 108 / 109.0, LoadBalance.gpuRowSplit(Lengths.of(tail), 1, 108).factor(), 1e-12);
        // A single long row among short ones dominates its SM.
        int[] skew = new int[108 * 4];
        Arrays.fill(skew, 9);
        skew[0] = 9 + 4000;
        Balance b = LoadBalance.gpuRowSplit(Lengths.of(skew), 1, 108);
        assertEquals((4000 + 40.0) / ((4000 + 40.0 * 108) / 108), b.factor(), 1e-9);
        assertTrue(b.factor() > 40);
    }
}
