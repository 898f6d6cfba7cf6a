package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;

/**
 * Summary of a list of lengths (non-zeros per row or per column).
 *
 * @param cv coefficient of variation: population standard deviation over mean; 0 when the mean is 0
 */
public record LengthSummary(int count, int min, int max, double mean, double cv) {
    public LengthSummary {
        if (count < 0 || min < 0 || max < min || mean < min || mean > max || !(cv >= 0)) {
            throw new SparseprofException("length summary: inconsistent count " + count + " min " + min
                    + " max " + max + " mean " + mean + " cv " + cv);
        }
    }

    /** Summary of {@code lengths}; all zeros for an empty array. */
    static LengthSummary of(int[] lengths) {
        if (lengths.length == 0) return new LengthSummary(0, 0, 0, 0.0, 0.0);
        int min = Integer.MAX_VALUE;
        int max = 0;
        long sum = 0;
        for (int v : lengths) {
            min = Math.min(min, v);
            max = Math.max(max, v);
            sum += v;
        }
        double mean = (double) sum / lengths.length;
        double squares = 0.0;
        for (int v : lengths) {
            double d = v - mean;
            squares += d * d;
        }
        double std = Math.sqrt(squares / lengths.length);
        double clampedMean = Math.min(max, Math.max(min, mean));
        return new LengthSummary(lengths.length, min, max, clampedMean, mean == 0.0 ? 0.0 : std / mean);
    }
}
