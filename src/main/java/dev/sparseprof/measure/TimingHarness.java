package dev.sparseprof.measure;

import dev.sparseprof.kernel.SpmmPlan;
import dev.sparseprof.kernel.WorkerPool;
import java.util.Arrays;

/**
 * Times a planned kernel: warm-up runs until the JIT has settled, then timed repetitions (wall time of the whole parallel
 * call, per-thread times for the imbalance). Sorting and statistics happen after the timed loop.
 */
public final class TimingHarness {
    /**
     * Warm-up goes on past its minimum while the latest run is this much slower than the best
     * (the JIT is still compiling, on a loaded machine for seconds), up to {@link #MAX_WARMUP_NANOS}.
     */
    static final double UNSETTLED_FACTOR = 1.3;
    static final long MAX_WARMUP_NANOS = 5_000_000_000L;

    private TimingHarness() {}

    public static Timing time(SpmmPlan<?> plan, float[] b, float[] c, WorkerPool pool, TimingConfig config) {
        int threads = plan.threads();
        long[] threadNanos = new long[threads];
        long warmupStart = System.nanoTime();
        long minWarmupNanos = (long) (config.minWarmupSeconds() * 1e9);
        long maxWarmupNanos = Math.max(minWarmupNanos, MAX_WARMUP_NANOS);
        long best = Long.MAX_VALUE;
        long latest = Long.MAX_VALUE;
        for (int w = 0; ; w++) {
            long elapsed = System.nanoTime() - warmupStart;
            boolean settled = latest <= best * UNSETTLED_FACTOR;
            if (w >= config.warmupRuns() && elapsed >= minWarmupNanos && (settled || elapsed >= maxWarmupNanos)) break;
            long start = System.nanoTime();
            plan.run(b, c, pool, threadNanos);
            latest = System.nanoTime() - start;
            best = Math.min(best, latest);
        }
        int reps = config.repetitions();
        double[] seconds = new double[reps];
        double[] imbalance = new double[reps];
        for (int r = 0; r < reps; r++) {
            long start = System.nanoTime();
            plan.run(b, c, pool, threadNanos);
            seconds[r] = (System.nanoTime() - start) * 1e-9;
            imbalance[r] = imbalance(threadNanos);
        }
        Arrays.sort(seconds);
        Arrays.sort(imbalance);
        return new Timing(reps, quantile(seconds, 0.5), seconds[0], seconds[reps - 1],
                quantile(seconds, 0.25), quantile(seconds, 0.75), Math.max(1.0, quantile(imbalance, 0.5)));
    }

    /** Max over mean of per-thread times; 1 for one thread. */
    static double imbalance(long[] threadNanos) {
        long max = 0;
        long sum = 0;
        for (long t : threadNanos) {
            max = Math.max(max, t);
            sum += t;
        }
        return sum == 0 ? 1.0 : (double) max * threadNanos.length / sum;
    }

    /** Linear-interpolated quantile of sorted values. */
    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }
}
