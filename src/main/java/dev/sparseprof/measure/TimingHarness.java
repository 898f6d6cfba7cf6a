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
        warmUp(plan, b, c, pool, config);
        Samples samples = new Samples(config.repetitions());
        for (int r = 0; r < config.repetitions(); r++) samples.runOnce(plan, b, c, pool);
        return samples.timing();
    }

    /** The untimed runs: at least the configured count and time, longer while the JIT is still settling. */
    public static void warmUp(SpmmPlan<?> plan, float[] b, float[] c, WorkerPool pool, TimingConfig config) {
        long[] threadNanos = new long[plan.threads()];
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
    }

    /**
     * The timed repetitions of one kernel, taken one at a time so that a caller can interleave
     * kernels (each then sees the same mix of a shared machine's load); statistics after the last.
     */
    public static final class Samples {
        private final double[] seconds;
        private final double[] imbalance;
        private long[] threadNanos = new long[0];
        private int count;

        public Samples(int repetitions) {
            seconds = new double[repetitions];
            imbalance = new double[repetitions];
        }

        /** One timed run of the whole parallel call. */
        public void runOnce(SpmmPlan<?> plan, float[] b, float[] c, WorkerPool pool) {
            if (count == seconds.length) throw new IllegalStateException("all " + count + " repetitions taken");
            if (threadNanos.length != plan.threads()) threadNanos = new long[plan.threads()];
            long start = System.nanoTime();
            plan.run(b, c, pool, threadNanos);
            seconds[count] = (System.nanoTime() - start) * 1e-9;
            imbalance[count] = imbalance(threadNanos);
            count++;
        }

        /** Median, extremes and quartiles of the runs taken, and the median imbalance. */
        public Timing timing() {
            if (count == 0) throw new IllegalStateException("no repetitions taken");
            double[] s = Arrays.copyOf(seconds, count);
            double[] im = Arrays.copyOf(imbalance, count);
            Arrays.sort(s);
            Arrays.sort(im);
            return new Timing(count, quantile(s, 0.5), s[0], s[count - 1], quantile(s, 0.25), quantile(s, 0.75),
                    Math.max(1.0, quantile(im, 0.5)));
        }
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
