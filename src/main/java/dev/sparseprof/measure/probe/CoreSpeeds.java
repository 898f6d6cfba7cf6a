package dev.sparseprof.measure.probe;

import dev.sparseprof.util.CoreAffinity;
import java.util.Arrays;
import java.util.Locale;

/**
 * Each CPU's fp32 FMA throughput, one thread pinned to it at a time, in interleaved rounds (the
 * median round per CPU): whether this machine's cores are equal. A VM's vCPUs need not be: a host
 * may run another tenant on a vCPU's SMT sibling, or clock its cores apart. The first CPU is the
 * one single-threaded runs take (the pinned pools, {@code kernel.WorkerPool#pinned}), so speeds are
 * relative to it; a static partition's threads all wait for the slowest CPU they run on.
 *
 * @param cpus                the CPUs this process may use, ascending
 * @param flopsPerSecond      each one's median fp32 FMA throughput
 */
public record CoreSpeeds(int[] cpus, double[] flopsPerSecond) {
    /** Interleaved rounds over the CPUs. */
    public static final int ROUNDS = 7;
    /** A spread ({@link #spread}) at or above which the cores count as equal: the rounds' own noise. */
    public static final double EQUAL = 0.9;

    public CoreSpeeds {
        cpus = cpus.clone();
        flopsPerSecond = flopsPerSecond.clone();
        if (cpus.length != flopsPerSecond.length || cpus.length == 0) throw new IllegalArgumentException("one rate per CPU");
        for (double f : flopsPerSecond) if (!(f > 0)) throw new IllegalArgumentException("rates must be positive");
    }

    /** The slowest CPU's throughput over the fastest's (1: equal cores). */
    public double spread() {
        return Arrays.stream(flopsPerSecond).min().orElseThrow() / Arrays.stream(flopsPerSecond).max().orElseThrow();
    }

    /** {@code cpu 0 222.8 GFLOP/s, cpu 1 212.3 GFLOP/s}: each CPU's rate, as the probe prints it and the spec's note keeps it. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cpus.length; i++) {
            b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "cpu %d %.1f GFLOP/s", cpus[i], flopsPerSecond[i] / 1e9));
        }
        return b.toString();
    }

    /** The slowest CPU's throughput over the first's, at most 1: the spec's {@code cpu.inCore.slowestCore}. */
    public double slowestOverFirst() {
        return Math.min(1, Arrays.stream(flopsPerSecond).min().orElseThrow() / flopsPerSecond[0]);
    }

    /**
     * Measures every CPU this process may use, or returns null where there is one or affinity cannot
     * be set. Each round pins the calling thread to each CPU in turn for one trial of
     * {@code minTrialSeconds}; the thread's own mask comes back at the end.
     */
    public static CoreSpeeds measure(double minTrialSeconds) {
        int[] cpus = CoreAffinity.pinnable();
        if (cpus.length == 0) return null;
        byte[] mask = CoreAffinity.current();
        try {
            ProbeWork work = reps -> FmaLoops.fp32((long) ITERATIONS * reps);
            if (!CoreAffinity.pin(cpus[0])) return null;
            int reps = ThreadTeam.repsFor(work, minTrialSeconds);
            double[][] rounds = new double[cpus.length][ROUNDS];
            double sink = 0;
            for (int r = 0; r < ROUNDS; r++) {
                for (int i = 0; i < cpus.length; i++) {
                    if (!CoreAffinity.pin(cpus[i])) return null;
                    sink += work.run(1);
                    long t0 = System.nanoTime();
                    sink += work.run(reps);
                    rounds[i][r] = FmaLoops.flops(32, (long) ITERATIONS * reps) / ((System.nanoTime() - t0) * 1e-9);
                }
            }
            Blackhole.consume(sink);
            double[] median = new double[cpus.length];
            for (int i = 0; i < cpus.length; i++) {
                Arrays.sort(rounds[i]);
                median[i] = rounds[i][ROUNDS / 2];
            }
            return new CoreSpeeds(cpus, median);
        } finally {
            CoreAffinity.set(mask);
        }
    }

    private static final int ITERATIONS = 4096;
}
