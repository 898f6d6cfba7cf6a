package dev.sparseprof.measure.probe;

import dev.sparseprof.util.CoreAffinity;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Each CPU's fp32 FMA throughput, one thread pinned to it at a time, in interleaved rounds (the
 * median round per CPU): whether this machine's cores are equal. A VM's vCPUs need not be: a host
 * may run another tenant on a vCPU's SMT sibling, or clock its cores apart. The first CPU is the
 * one single-threaded runs take (the pinned pools, {@code kernel.WorkerPool#pinned}), so speeds are
 * relative to it; a static partition's threads all wait for the slowest CPU they run on.
 *
 * @param cpus                the CPUs this process may use, ascending
 * @param flopsPerSecond      each one's median fp32 FMA throughput
 * @param takes               how many whole measurements were made for this one ({@link #settled}: 1, or
 *                            {@link #TAKES} when the first found the cores unequal)
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
    /** The pause between takes, so that a tenant's burst can end between them. */
    private static final long PAUSE_MILLIS = 500;

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
        return takes > 1 ? b.append(" (the median of ").append(takes).append(" takes)").toString() : b.toString();
    }

    /** The slowest CPU's throughput over the first's, at most 1: the spec's {@code cpu.inCore.slowestCore}. */
    public double slowestOverFirst() {
        return Math.min(1, Arrays.stream(flopsPerSecond).min().orElseThrow() / flopsPerSecond[0]);
    }

    /**
     * {@link #measure}, taken {@link #TAKES} times where the first take finds a CPU slower than the
     * first ({@link #slowestOverFirst} below {@link #SETTLED}), half a second apart; the take with the
     * median {@link #slowestOverFirst} is kept. A tenant on a vCPU's SMT sibling that lasts through one
     * take's rounds reads as a slow core: on the Zen 4 VM (6 Dec 2026, docs/calibration.md) two of
     * ten probes read 0.78 and 0.83 where the other eight read 0.99-1.00, and those two draws moved
     * the probe-only error most. A core that is really slower is slow in every take and stays so.
     */
    public static CoreSpeeds measureSettled(double minTrialSeconds) {
        return settled(() -> measure(minTrialSeconds), () -> {
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** {@link #measureSettled} over any source of takes (null: not measurable), {@code pause} run between takes. */
    static CoreSpeeds settled(Supplier<CoreSpeeds> take, Runnable pause) {
        CoreSpeeds first = take.get();
        if (first == null || first.slowestOverFirst() >= SETTLED) return first;
        CoreSpeeds[] takes = new CoreSpeeds[TAKES];
        takes[0] = first;
        for (int i = 1; i < TAKES; i++) {
            pause.run();
            takes[i] = take.get();
            if (takes[i] == null) return first;
        }
        Arrays.sort(takes, Comparator.comparingDouble(CoreSpeeds::slowestOverFirst));
        CoreSpeeds median = takes[TAKES / 2];
        return new CoreSpeeds(median.cpus, median.flopsPerSecond, TAKES);
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
