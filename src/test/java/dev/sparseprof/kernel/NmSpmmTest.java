package dev.sparseprof.kernel;

import dev.sparseprof.sparse.NmMatrix;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class NmSpmmTest {
    /**
     * The slots' columns decoded group by group agree with the reference product for patterns of
     * every N (1:2, 2:4, 3:5, 4:8), a K that ends in a short group, and rows split between threads
     * part-way through a group (the merge partition on 3 threads).
     */
    @Test
    void everyPatternDecodesItsColumnsWhereverARowIsSplit() {
        for (int n : new int[] {1, 3 * KernelVectors.FLOATS.length() + 1}) everyPatternAt(n); // N = 1: the gather dot
    }

    private static void everyPatternAt(int n) {
        int m = 23, k = 37;
        float[] b = RandomMatrices.dense(k, n, 5);
        for (NmPattern pattern : new NmPattern[] {NmPattern.ONE_TWO, NmPattern.TWO_FOUR, new NmPattern(3, 5), NmPattern.FOUR_EIGHT}) {
            float[] a = RandomMatrices.nm(RandomMatrices.sparse(m, k, 0.8, pattern.m()), m, k, pattern.n(), pattern.m());
            float[] expected = ReferenceSpmm.dense(a, m, k, b, n);
            NmSpmm kernel = new NmSpmm(pattern);
            NmMatrix prepared = kernel.prepare(MatrixView.of(m, k, a));
            for (String partition : new String[] {"static", "merge"}) {
                for (int threads : new int[] {1, 3}) {
                    float[] c = new float[m * n];
                    Arrays.fill(c, Float.NaN);
                    SpmmPlan.of(kernel, prepared, n, Partitions.byName(partition), threads).run(b, c);
                    KernelOracleTest.assertClose(expected, c, k, pattern + " " + partition + " threads=" + threads + " N=" + n);
                }
            }
        }
    }
}
