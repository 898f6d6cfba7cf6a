package dev.sparseprof.advise;

import dev.sparseprof.util.SparseprofException;

/**
 * One candidate on one machine at one token count: the fastest format of every registered one on
 * the pruned weights (what {@code simulate --format auto} picks), its time, the layer's dense
 * baseline for those weights, and the fastest format other than dense with its time (NaN and null
 * where none can run the layer).
 */
public record Point(Candidate candidate, String format, double seconds, double denseSeconds,
                    String sparseFormat, double sparseSeconds) {
    public Point {
        if (!(seconds > 0) || !(denseSeconds > 0)) throw new SparseprofException("a point needs positive times");
    }

    public double speedup() {
        return denseSeconds / seconds;
    }

    /** The fastest sparse format's speedup (NaN where none runs the layer). */
    public double sparseSpeedup() {
        return denseSeconds / sparseSeconds;
    }
}
