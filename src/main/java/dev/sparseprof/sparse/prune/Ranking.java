package dev.sparseprof.sparse.prune;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * Exact top-k selection, deterministic on ties: items rank by score, larger first, and among equal
 * scores the earlier item (lower index; for global pruning, earlier layer) ranks first. NaN ranks
 * above everything, so a NaN weight is never silently dropped.
 */
final class Ranking {
    private Ranking() {}

    /** {@code floor(sparsity * n)}, with the decimal sparsity multiplied exactly (0.29 of 100 is 29). */
    static long prunedCount(double sparsity, long n) {
        return BigDecimal.valueOf(sparsity).multiply(BigDecimal.valueOf(n)).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /**
     * Which of {@code scores} are among the top {@code keep}; for the few thousand to millions of
     * blocks or rows of a layer (it sorts a primitive copy of the scores to find the threshold).
     */
    static boolean[] keepTop(double[] scores, int keep) {
        int n = scores.length;
        boolean[] kept = new boolean[n];
        if (keep <= 0) return kept;
        double[] sorted = new double[n];
        for (int i = 0; i < n; i++) sorted[i] = rankable(scores[i]);
        Arrays.sort(sorted);
        double threshold = sorted[n - Math.min(keep, n)];
        long above = 0;
        for (int i = 0; i < n; i++) if (rankable(scores[i]) > threshold) above++;
        long ties = keep - above;
        for (int i = 0; i < n; i++) {
            double s = rankable(scores[i]);
            kept[i] = s > threshold || (s == threshold && ties-- > 0);
        }
        return kept;
    }

    /**
     * Counts of the top 16 bits of the magnitude keys. Four interleaved counters per bucket: trained
     * weights crowd into a few buckets, and one counter would make each increment wait for the last.
     */
    private static long[] highHistogram(float[][] arrays) {
        int[] h = new int[4 << 16];
        long[] high = new long[1 << 16];
        for (float[] a : arrays) {
            int i = 0;
            for (; i + 4 <= a.length; i += 4) {
                h[((Float.floatToRawIntBits(a[i]) & 0x7fffffff) >>> 15) << 2]++;
                h[(((Float.floatToRawIntBits(a[i + 1]) & 0x7fffffff) >>> 15) << 2) + 1]++;
                h[(((Float.floatToRawIntBits(a[i + 2]) & 0x7fffffff) >>> 15) << 2) + 2]++;
                h[(((Float.floatToRawIntBits(a[i + 3]) & 0x7fffffff) >>> 15) << 2) + 3]++;
            }
            for (; i < a.length; i++) h[((Float.floatToRawIntBits(a[i]) & 0x7fffffff) >>> 15) << 2]++;
            // flush per array so that no int counter can overflow (an array has fewer than 2^31 elements)
            for (int b = 0; b < high.length; b++) {
                high[b] += (long) h[b << 2] + h[(b << 2) + 1] + h[(b << 2) + 2] + h[(b << 2) + 3];
            }
            Arrays.fill(h, 0);
        }
        return high;
    }

    private static double rankable(double score) {
        return Double.isNaN(score) ? Double.POSITIVE_INFINITY : score;
    }

    /**
     * Keeps exactly {@code keep} elements of the arrays taken in order (the largest |value| first,
     * ties to the earlier position) and sets the others to 0.0f, in place. A radix select on the
     * 31-bit magnitude keys ({@code floatToRawIntBits & 0x7fffffff}, monotonic in |value|): a
     * histogram of the top 16 bits, a histogram of the low 15 bits inside the threshold bucket,
     * and one pass that applies the threshold; no copy or sort of the weights.
     */
    static void keepLargestMagnitudes(float[][] arrays, long keep) {
        long total = 0;
        for (float[] a : arrays) total += a.length;
        if (keep >= total) return;
        if (keep <= 0) {
            for (float[] a : arrays) Arrays.fill(a, 0.0f);
            return;
        }
        long[] high = highHistogram(arrays);
        long above = 0;
        int bucket = high.length - 1;
        while (above + high[bucket] < keep) above += high[bucket--];
        long[] low = new long[1 << 15];
        for (float[] a : arrays) {
            for (float v : a) {
                int key = Float.floatToRawIntBits(v) & 0x7fffffff;
                if (key >>> 15 == bucket) low[key & 0x7fff]++;
            }
        }
        int lowKey = low.length - 1;
        while (above + low[lowKey] < keep) above += low[lowKey--];
        int threshold = (bucket << 15) | lowKey;
        long ties = keep - above;
        for (float[] a : arrays) {
            for (int i = 0; i < a.length; i++) {
                int key = Float.floatToRawIntBits(a[i]) & 0x7fffffff;
                if (key == threshold) {
                    if (ties > 0) ties--;
                    else a[i] = 0.0f;
                    continue;
                }
                // a select, not a branch: below-threshold weights are scattered at random
                a[i] = key > threshold ? a[i] : 0.0f;
            }
        }
    }
}
