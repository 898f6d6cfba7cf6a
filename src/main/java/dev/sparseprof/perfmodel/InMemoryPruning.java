package dev.sparseprof.perfmodel;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;

/**
 * What-if pruning of one weight matrix in memory, for {@code simulate --sparsity} and
 * {@code compare}: magnitude pruning to a target sparsity within the layer (ties at the threshold
 * are pruned in row-major order until the target count is reached), and N:M pruning along K (keep
 * the N largest magnitudes of every M consecutive weights). The result is a new row-major copy.
 */
public final class InMemoryPruning {
    private InMemoryPruning() {}

    public static MatrixView magnitude(MatrixView a, double sparsity) {
        Checks.fraction(sparsity, "sparsity");
        float[] w = a.toDense();
        int prune = (int) Math.round(sparsity * w.length);
        if (prune == 0) return MatrixView.of(a.rows(), a.cols(), w);
        float[] mags = new float[w.length];
        for (int i = 0; i < w.length; i++) mags[i] = Math.abs(w[i]);
        float[] sorted = mags.clone();
        Arrays.sort(sorted);
        float threshold = sorted[prune - 1];
        int below = 0;
        for (float v : sorted) if (v < threshold) below++;
        int tiesToPrune = prune - below;
        for (int i = 0; i < w.length; i++) {
            if (mags[i] < threshold) w[i] = 0f;
            else if (mags[i] == threshold && tiesToPrune > 0) {
                w[i] = 0f;
                tiesToPrune--;
            }
        }
        return MatrixView.of(a.rows(), a.cols(), w);
    }

    /** Keeps the {@code n} largest of every {@code m} consecutive weights of a row (2:4: n=2, m=4). */
    public static MatrixView nOfM(MatrixView a, int n, int m) {
        if (n <= 0 || m <= 0 || n > m) throw new IllegalArgumentException("N:M needs 0 < N <= M, got " + n + ":" + m);
        float[] w = a.toDense();
        int cols = a.cols();
        for (int r = 0; r < a.rows(); r++) {
            for (int g = 0; g < cols; g += m) {
                int end = Math.min(cols, g + m);
                int keep = Math.min(n, end - g);
                // Zero the smallest (end - g - keep) entries of the group, one at a time (m is tiny).
                for (int z = 0; z < end - g - keep; z++) {
                    int smallest = -1;
                    for (int c = g; c < end; c++) {
                        int i = r * cols + c;
                        if (w[i] == 0f && isPruned(w, i)) continue;
                        if (smallest < 0 || Math.abs(w[i]) < Math.abs(w[smallest])) smallest = i;
                    }
                    w[smallest] = -0.0f;
                }
                for (int c = g; c < end; c++) if (isPruned(w, r * cols + c)) w[r * cols + c] = 0f;
            }
        }
        return MatrixView.of(a.rows(), a.cols(), w);
    }

    /** -0.0f marks an entry pruned in the current group, so a group of zeros is still pruned in order. */
    private static boolean isPruned(float[] w, int i) {
        return Float.floatToRawIntBits(w[i]) == 0x80000000;
    }
}
