package dev.sparseprof.measure;

import dev.sparseprof.kernel.SpmmPlan;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.util.Median;
import java.util.Arrays;

/**
 * Times a planned kernel: warm-up runs until the JIT has settled, then timed repetitions (wall time of the whole parallel
 * call, per-thread times for the imbalance). Sorting and statistics happen after the timed loop.
 */
public final class TimingHarness {
    /**
     * Warm-up runs in rounds of at least {@link #ROUND_SECONDS} and {@link #ROUND_MIN_RUNS} runs
     * (JMH's warm-up iterations, shortened): it ends once the configured minimum runs and time are
     * past and the last two rounds' medians are both within {@link #STABLE_TOLERANCE} of the best
     * round's (the JIT has compiled the loop and nothing is getting faster), or after
     * {@link #MAX_WARMUP_NANOS} (then unsettled, which the result says). 10 % and 1.5 s: with 5 %
     * and 3 s, 2-thread runs on the shared build VM (load average 14 on 2 vCPUs) never settled and
     * every warm-up ran to its limit. Before this, one run within
     * 1.3x of the best ended the warm-up, and the first layer of a shape measured 1.5x slower than
     * the next layers of the same shape (issue 12).
     */
    static final double STABLE_TOLERANCE = 0.10;
    static final double ROUND_SECONDS = 0.02;
    static final int ROUND_MIN_RUNS = 3;
    static final int ROUND_MAX_RUNS = 64;
    static final long MAX_WARMUP_NANOS = 1_500_000_000L;

    /** How a warm-up went: its untimed runs and whether successive rounds agreed before the time limit. */
    public record WarmUp(int runs, boolean settled) {}

    private TimingHarness() {}

    public static Timing time(SpmmPlan<?> plan, float[] b, float[] c, WorkerPool pool, TimingConfig config) {
        warmUp(plan, b, c, pool, config);
        Samples samples = new Samples(config.repetitions());
        for (int r = 0; r < config.repetitions(); r++) samples.runOnce(plan, b, c, pool);
        return samples.timing();
    }

    /** The untimed runs: at least the configured count and time, in rounds until two rounds agree with the best ({@link #STABLE_TOLERANCE}). */
    public static WarmUp warmUp(SpmmPlan<?> plan, float[] b, float[] c, WorkerPool pool, TimingConfig config) {
        long[] threadNanos = new long[plan.threads()];
        double[] round = new double[ROUND_MAX_RUNS];
        long warmupStart = System.nanoTime();
        long minWarmupNanos = (long) (config.minWarmupSeconds() * 1e9);
        long maxWarmupNanos = Math.max(minWarmupNanos, MAX_WARMUP_NANOS);
        long roundNanos = (long) (ROUND_SECONDS * 1e9);
        double best = Double.POSITIVE_INFINITY;
        double previous = Double.POSITIVE_INFINITY;
        int runs = 0;
        while (true) {
            int count = 0;
            long roundStart = System.nanoTime();
            while (count < ROUND_MAX_RUNS && (count < ROUND_MIN_RUNS || System.nanoTime() - roundStart < roundNanos)) {
                long start = System.nanoTime();
                plan.run(b, c, pool, threadNanos);
                round[count++] = System.nanoTime() - start;
            }
            runs += count;
            double median = Median.of(round, count);
            best = Math.min(best, median);
            boolean stable = median <= best * (1 + STABLE_TOLERANCE) && previous <= best * (1 + STABLE_TOLERANCE);
            previous = median;
            long elapsed = System.nanoTime() - warmupStart;
            if (runs >= config.warmupRuns() && elapsed >= minWarmupNanos && stable) return new WarmUp(runs, true);
            if (elapsed >= maxWarmupNanos) return new WarmUp(runs, false);
        }
    }

    /**
     * The timed repetitions of one kernel, taken one at a time so that a caller can interleave
     * kernels (each then sees the same mix of a shared machine's load); statistics after the last.
     * With a {@link PageFaults} reader, also the process's page faults: the caller's count over all
     * the kernels' timed runs ({@link #shareFaults}) and this kernel's own over a few untimed runs
     * after them ({@link #checkFaults}). Nothing is read between timed runs: each read is a system
     * call, and on a guest whose kernel isolates its page tables without PCID (the Zen 5 VM:
     * {@code pti} and no {@code pcid} in its flags) every system call empties the TLB, so the next
     * run began by walking the page tables for every page it touched (dense at N = 1 on a
     * 384x384 layer, 590 KB: 6.8-7.3 us back to back, 10.1-10.8 us with a read between runs,
     * 8 Dec 2026).
     */
    public static final class Samples {
        /** Untimed runs of a kernel's own page-fault check ({@link #checkFaults}). */
        static final int FAULT_CHECK_RUNS = 5;
        private final double[] seconds;
        private final double[] imbalance;
        private final PageFaults faults;
        private long[] threadNanos = new long[0];
        private double faultsPerRun;
        private boolean faultsKnown = true;
        private boolean faultsCounted;
        private int count;

        public Samples(int repetitions) {
            this(repetitions, PageFaults.NONE);
        }

        Samples(int repetitions, PageFaults faults) {
            seconds = new double[repetitions];
            imbalance = new double[repetitions];
            this.faults = faults;
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

        /**
         * This kernel's share of the process's page faults over the timed runs of every kernel timed
         * beside it: {@code before} and {@code after} read around all of them (-1: unknown), over their
         * {@code runs}.
         */
        void shareFaults(long before, long after, long runs) {
            record(before, after, runs);
        }

        /**
         * The process's page faults over {@link #FAULT_CHECK_RUNS} more runs of this kernel alone,
         * untimed, read around them: a kernel that touches fresh pages on every call shows here,
         * where the shared count ({@link #shareFaults}) cannot say which kernel it was.
         */
        void checkFaults(SpmmPlan<?> plan, float[] b, float[] c, WorkerPool pool) {
            if (threadNanos.length != plan.threads()) threadNanos = new long[plan.threads()];
            long before = faults.count();
            for (int i = 0; i < FAULT_CHECK_RUNS; i++) plan.run(b, c, pool, threadNanos);
            record(before, faults.count(), FAULT_CHECK_RUNS);
        }

        private void record(long before, long after, long runs) {
            if (before < 0 || after < 0) faultsKnown = false;
            else if (runs > 0) faultsPerRun += (double) (after - before) / runs;
            faultsCounted = true;
        }

        /**
         * The process's page faults per run (all its threads): the timed runs' share plus this
         * kernel's own check, or NaN when they could not be read or were not counted.
         */
        public double faultsPerRun() {
            return faultsKnown && faultsCounted ? faultsPerRun : Double.NaN;
        }

        /**
         * The first third's median over the last third's (1 with fewer than 6 runs): above 1, the
         * runs were getting faster (JIT still compiling) or the machine's load fell during the case.
         */
        public double drift() {
            if (count < 6) return 1;
            int third = count / 3;
            return Median.of(seconds, third) / Median.of(Arrays.copyOfRange(seconds, count - third, count));
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
