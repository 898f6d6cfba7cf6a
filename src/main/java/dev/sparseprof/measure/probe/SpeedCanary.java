package dev.sparseprof.measure.probe;

import dev.sparseprof.kernel.WorkerPool;

/**
 * An independent meter of the machine's speed while a run measures: a short fp32 FMA loop
 * ({@link FmaLoops}: registers only, no memory) on every thread of the kernels' pool, read once
 * per round of repetitions. On a shared VM another tenant can take part of the physical core for
 * seconds at a time. Every kernel then runs slower alike, its repetitions stay tight, and no
 * spread criterion of {@code measure.NoiseCriteria} sees it: on the Zen 5 VM (7 Dec 2026, 1 thread) dense
 * 3072x768x128 went from 3.8 ms to 5.2-7.1 ms for more than 15 s while this loop read 160-184
 * GFLOP/s against 217-228 before. A reading gives the slowest thread's rate and the fastest's: a
 * case's speed is the median of its rounds' slowest over the run's best median of the fastest
 * ({@code measure.CpuMeasureRun}), so one vCPU slowed for the whole of a 2-thread run (a tenant on it
 * alone) reads slow too; a case of an FMA-bound kernel measured below {@code NoiseCriteria#minSpeed()}
 * is noisy. {@link KernelRateProbe} reads it over its rounds too. The loop meters the FP pipes only:
 * a spell on the caches or memory alone does not show.
 */
public final class SpeedCanary {
    /** FMA iterations of one call: about 3.5 us per thread at 220 GFLOP/s (512 bits), 7 at 256 bits. */
    static final long ITERATIONS = 2000;
    /** Back-to-back calls of one reading; the best is kept (one interrupt does not make a slow reading). */
    static final int TRIALS = 3;
    /** Calls before the first reading, so that the JIT has compiled the loop. */
    static final int WARM_UP_CALLS = 3000;

    private final WorkerPool pool;
    private final long[] nanos;
    /** One slot a thread, 16 doubles apart (no shared line), so that the loops' results are used. */
    private final double[] sinks;

    public SpeedCanary(WorkerPool pool) {
        this.pool = pool;
        this.nanos = new long[pool.threads()];
        this.sinks = new double[16 * pool.threads()];
        for (int i = 0; i < WARM_UP_CALLS; i++) call();
    }

    /** One reading: GFLOP/s of the slowest and of the fastest thread (equal on one thread). */
    public record Reading(double slowest, double fastest) {}

    /** The best of {@link #TRIALS} calls, each thread's rate kept over the calls. */
    public Reading reading() {
        double[] best = new double[nanos.length];
        for (int t = 0; t < TRIALS; t++) {
            call();
            for (int i = 0; i < nanos.length; i++) best[i] = Math.max(best[i], FmaLoops.flops(32, ITERATIONS) / Math.max(1, nanos[i]));
        }
        double slowest = Double.POSITIVE_INFINITY;
        double fastest = 0;
        for (double b : best) {
            slowest = Math.min(slowest, b);
            fastest = Math.max(fastest, b);
        }
        return new Reading(slowest, fastest);
    }

    private void call() {
        pool.runAll(thread -> sinks[16 * thread] += FmaLoops.fp32(ITERATIONS), nanos);
    }
}
