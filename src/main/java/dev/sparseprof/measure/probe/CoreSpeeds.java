package dev.sparseprof.measure.probe;

import dev.sparseprof.util.CoreAffinity;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Each CPU's fp32 FMA throughput, one thread pinned to it at a time, in interleaved rounds (the
 * median round per CPU; the best over takes where one take is not enough, {@link #settled}): whether
 * this machine's cores are equal. A VM's vCPUs need not be: a host
 * may run another tenant on a vCPU's SMT sibling, or clock its cores apart. The first CPU is the
 * one single-threaded runs take (the pinned pools, {@code kernel.WorkerPool#pinned}), so speeds are
 * relative to it; a static partition's threads all wait for the slowest CPU they run on.
 *
 * @param cpus                the CPUs this process may use, in the order the pinned pools take them
 * @param flopsPerSecond      each one's median fp32 FMA throughput
 * @param takes               how many whole measurements were made for this one ({@link #settled}: 1, or
 *                            up to {@link #TAKES} when the first found the cores unequal)
 */
public record CoreSpeeds(int[] cpus, double[] flopsPerSecond, int takes) {
    /** Interleaved rounds over the CPUs. */
    public static final int ROUNDS = 7;
    /** A spread ({@link #spread}) at or above which the cores count as equal: the rounds' own noise. */
    public static final double EQUAL = 0.9;

    /**
     * A take whose {@link #slowestOverFirst} is below this is taken again ({@link #settled}): 12 of 16
     * probes of the Zen 4 VM (6 Dec 2026, 22:33-22:46 UTC) read 0.99-1.00, the others 0.84-0.96, and
     * the spec stretches every multi-core prediction by its inverse (0.956: 4.6 %).
     */
    public static final double SETTLED = 0.98;
    /** Takes at most ({@link #settled}). */
    public static final int TAKES = 3;
    /**
     * The pause before a third take ({@link #settled}): on the Zen 4 VM (7 Dec 2026, 06:29 UTC) one CPU
     * ran FMA at 75-90 of its 100-102 GFLOP/s in episodes of 1 to 7 s, on either CPU.
     */
    private static final long PAUSE_MILLIS = 2000;

    public CoreSpeeds {
        if (takes < 1) throw new IllegalArgumentException("takes must be at least 1");
        cpus = cpus.clone();
        flopsPerSecond = flopsPerSecond.clone();
        if (cpus.length != flopsPerSecond.length || cpus.length == 0) throw new IllegalArgumentException("one rate per CPU");
        for (double f : flopsPerSecond) if (!(f > 0)) throw new IllegalArgumentException("rates must be positive");
    }

    /** One measurement's speeds. */
    public CoreSpeeds(int[] cpus, double[] flopsPerSecond) {
        this(cpus, flopsPerSecond, 1);
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
        return takes > 1 ? b.append(" (each CPU's best of ").append(takes).append(" takes)").toString() : b.toString();
    }

    /** The slowest CPU's throughput over the first's, at most 1: the spec's {@code cpu.inCore.slowestCore}. */
    public double slowestOverFirst() {
        return Math.min(1, Arrays.stream(flopsPerSecond).min().orElseThrow() / flopsPerSecond[0]);
    }

    /** These speeds and {@code other}'s (the same CPUs), each CPU at the faster of the two, over both's takes. */
    CoreSpeeds faster(CoreSpeeds other) {
        if (!Arrays.equals(cpus, other.cpus)) throw new IllegalArgumentException("takes of other CPUs");
        double[] best = new double[cpus.length];
        for (int i = 0; i < best.length; i++) best[i] = Math.max(flopsPerSecond[i], other.flopsPerSecond[i]);
        return new CoreSpeeds(cpus, best, takes + other.takes);
    }

    /**
     * {@link #settled} with {@link #measure} as the further takes and a real pause before the third.
     * The caller takes {@code first} early and calls this some seconds later (the probe: before and after
     * its kernel rates), so that the first two takes are that far apart.
     */
    public static CoreSpeeds measureSettled(CoreSpeeds first, double minTrialSeconds) {
        return settled(first, () -> measure(minTrialSeconds), () -> {
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * The CPUs' speeds from {@code first} and, where it finds a CPU slower than the first
     * ({@link #slowestOverFirst} below {@link #SETTLED}), further takes: one at once (the caller took
     * {@code first} seconds before), then, if the CPUs still read unequal, one after {@code pause}; each
     * CPU keeps the best of its takes' rates ({@link #faster}), as the probe's rates keep the best
     * trial: a tenant on a vCPU's SMT sibling only ever slows a take, and a core that is really slower is
     * slow in every take and stays so. A tenant that lasts through a take reads as a slow core: on the
     * Zen 4 VM (6 Dec 2026, docs/calibration.md) two of ten probes read 0.78 and 0.83 where the other
     * eight read 0.99-1.00, and on 7 Dec two probes in a row read 0.80 and 0.82 with takes half a second
     * apart (the median of three kept), where the layers measured minutes later ran as on equal CPUs.
     * Null where {@code first} is (one CPU, or no affinity).
     */
    static CoreSpeeds settled(CoreSpeeds first, Supplier<CoreSpeeds> take, Runnable pause) {
        if (first == null || first.slowestOverFirst() >= SETTLED) return first;
        CoreSpeeds kept = first;
        for (int i = 1; i < TAKES && kept.slowestOverFirst() < SETTLED; i++) {
            if (i > 1) pause.run();
            CoreSpeeds next = take.get();
            if (next == null) return kept;
            kept = kept.faster(next);
        }
        return kept;
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
