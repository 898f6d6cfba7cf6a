package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.NmPattern;

/**
 * N:M pruning along the rows of A: in each group of M consecutive weights (a partial last group
 * over its real width), a weight survives when fewer than N others of its group rank above it
 * (larger |w|, or equal |w| at a lower index; NaN ranks highest). O(M^2) compares per group; one
 * scratch array per layer.
 */
final class NmPruning {
    private NmPruning() {}

    static void apply(LayerWeights layer, NmPattern pattern) {
        float[] a = layer.values();
        int cols = layer.cols();
        int n = pattern.n();
        int m = pattern.m();
        boolean[] drop = new boolean[m];
        for (int r = 0; r < layer.rows(); r++) {
            int rowStart = r * cols;
            for (int g = 0; g < cols; g += m) {
                int end = rowStart + Math.min(cols, g + m);
                if (end - (rowStart + g) > n) pruneGroup(a, rowStart + g, end, n, drop);
            }
        }
    }

    private static void pruneGroup(float[] a, int start, int end, int n, boolean[] drop) {
        // all ranks first, then the zeroing, so that zeroed weights do not change later ranks
        for (int i = start; i < end; i++) {
            int key = Float.floatToRawIntBits(a[i]) & 0x7fffffff;
            int better = 0;
            for (int j = start; j < end; j++) {
                int other = Float.floatToRawIntBits(a[j]) & 0x7fffffff;
                if (other > key || (other == key && j < i)) better++;
            }
            drop[i - start] = better >= n;
        }
        for (int i = start; i < end; i++) if (drop[i - start]) a[i] = 0.0f;
    }
}
