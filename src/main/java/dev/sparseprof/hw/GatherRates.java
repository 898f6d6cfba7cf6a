package dev.sparseprof.hw;

/**
 * How fast this machine's cores gather B's rows out of their L2 while a sparse kernel runs, as
 * {@code calibrate --probe} measures it with the CSR kernel itself: a long call over random rows
 * of a B sized into L2, at 8 vectors, on 1 thread and on all {@code threads}. A row gather is
 * not a read stream: each B row is a short run of lines at a random place, which the L1's
 * prefetchers cannot run ahead of, and on a VM whose vCPUs share a core's L2 or its load ports
 * two threads gather little more than one. The streaming read figure ({@code l2PerCore}) measured
 * 222 GB/s on the Zen 5 VM where its layers gathered B at about 85.
 *
 * <p>Contract: {@link #perCoreBytesPerSecond} is what each of {@code cores} running cores gathers
 * per second (the 1-thread figure on one core, the all-threads figure over its threads on as many
 * or more), 0 when not probed (specs before 4 Dec 2026): the model then moves gathered bytes at
 * the streaming rate.
 */
public record GatherRates(double coreBytesPerSecond, double allBytesPerSecond, int threads) {
    public static final GatherRates NONE = new GatherRates(0, 0, 0);

    public GatherRates {
        if (!(coreBytesPerSecond >= 0) || !(allBytesPerSecond >= 0) || Double.isInfinite(coreBytesPerSecond) || Double.isInfinite(allBytesPerSecond)) {
            throw new SpecException("cpu.inCore: gather bandwidths must be finite and >= 0, got " + coreBytesPerSecond + ", " + allBytesPerSecond);
        }
        if (threads < 0 || (allBytesPerSecond > 0 && threads < 1)) throw new SpecException("cpu.inCore.gatherThreads must be >= 1, got " + threads);
    }

    public boolean present() {
        return coreBytesPerSecond > 0;
    }

    /** Bytes per second each of {@code cores} running cores gathers; 0 when not probed. */
    public double perCoreBytesPerSecond(int cores) {
        if (!present()) return 0;
        if (cores <= 1 || allBytesPerSecond <= 0 || threads <= 1) return coreBytesPerSecond;
        return Math.min(coreBytesPerSecond, allBytesPerSecond / threads);
    }
}
