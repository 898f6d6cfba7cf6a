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
        // all ranks first, then the zeroing, so that zeroed weights do not change later ranks; a weight's
        // rank counts the group's weights of larger magnitude, or of equal magnitude and lower index,
        // without a branch on the data: the magnitudes' comparisons were mispredicted one time in two
        // (simulate --nm 2:4 of a 202 M-weight LLaMA-7B block spent 2.4 s here, on the Zen 5 VM)
        int size = end - start;
        for (int i = 0; i < size; i++) {
            long key = rankKey(a[start + i], i);
            int better = 0;
            for (int j = 0; j < size; j++) better += (int) ((key - rankKey(a[start + j], j)) >>> 63);
            drop[i] = better >= n;
        }
        for (int i = 0; i < size; i++) if (drop[i]) a[start + i] = 0.0f;
    }

    /**
     * A weight's place in its group's order: its magnitude's bits above, its index below, inverted,
     * so that of equal magnitudes the lower index ranks higher; both parts are non-negative and the
     * whole below 2^63, so one key minus another has the sign of their comparison.
     */
    private static long rankKey(float v, int index) {
        return (long) (Float.floatToRawIntBits(v) & 0x7fffffff) << 32 | (0xffffffffL - index);
    }
}
