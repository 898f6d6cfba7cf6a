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
 * <p>{@code wideCoreBytesPerSecond} and {@code wideAllBytesPerSecond} (spec keys
 * {@code l2GatherWidePerCore}, {@code l2GatherWideAll}): the same call at two blocks of 8 vectors,
 * B's rows twice as long, which the kernel walks once per block: the second walk reads the other
 * half of rows the first walk fetched, and the hardware prefetchers, running ahead of the first
 * walk's lines into the next ones, have fetched part of it. On the Zen 4 VM under
 * {@code -XX:UseAVX=2} (7 Dec 2026) the narrow rate predicted csr at N = 128, two 8-vector blocks,
 * 15-23 % slow on random 1536 x 384 layers of 25-100 % density, where at N = 64, one block, it
 * was within 6-12 % (30 % on the fully dense one).
 *
 * <p>{@code overlap} and {@code wideOverlap} (spec keys {@code gatherOverlap}, {@code gatherWideOverlap};
 * NaN where not probed, before 7 Dec 2026): the share of the smaller of in-core and gather time that
 * the gather call hid, with which its rate was solved. The probe solves the rate with the short
 * transfer check's overlap ({@code InCoreRates#overlap}), but the rate cannot pass the streaming
 * read's; where the call ran faster than that composition allows, the rate stays at the streaming
 * read's and the overlap is solved from the call instead, so that the model gives the call the time
 * it took. On the Zen 4 VM under {@code -XX:UseAVX=2} (7 Dec 2026) both calls sat at the cap in every
 * probe, the checks' overlaps read 0.34-0.62 and the calls' own 0.49-0.60 (one block) and 0.64-0.73
 * (two) over five probes: with the check's, csr on random 1536 x 384 layers of 5-70 % density was
 * predicted 14-44 % slow; with the calls' (two probes), -7 to +14 %.
 *
 * <p>Contract: {@link #perCoreBytesPerSecond} is what each of {@code cores} running cores gathers
 * per second into rows of {@code blocks} column blocks (the 1-thread figure on one core, the
 * all-threads figure over its threads on as many or more; the wide figures from 2 blocks where the
 * probe measured them), 0 when not probed (specs before 4 Dec 2026): the model then moves gathered
 * bytes at the streaming rate.
 */
public record GatherRates(double coreBytesPerSecond, double allBytesPerSecond, int threads, double wideCoreBytesPerSecond,
                          double wideAllBytesPerSecond, double overlap, double wideOverlap) {
    public static final GatherRates NONE = new GatherRates(0, 0, 0);

    public GatherRates {
        double[] rates = {coreBytesPerSecond, allBytesPerSecond, wideCoreBytesPerSecond, wideAllBytesPerSecond};
        for (double r : rates) {
            if (!(r >= 0) || Double.isInfinite(r)) throw new SpecException("cpu.inCore: gather bandwidths must be finite and >= 0, got " + r);
        }
        if (threads < 0 || (allBytesPerSecond > 0 && threads < 1)) throw new SpecException("cpu.inCore.gatherThreads must be >= 1, got " + threads);
        for (double o : new double[] {overlap, wideOverlap}) {
            if (!Double.isNaN(o) && !(o >= 0 && o <= 1)) throw new SpecException("cpu.inCore: gather overlaps must lie in [0, 1], got " + o);
        }
    }

    /** Rates measured at one block only, without their overlaps (files written before 7 Dec 2026). */
    public GatherRates(double coreBytesPerSecond, double allBytesPerSecond, int threads) {
        this(coreBytesPerSecond, allBytesPerSecond, threads, 0, 0, Double.NaN, Double.NaN);
    }

    public boolean present() {
        return coreBytesPerSecond > 0;
    }

    /** Whether the probe measured the two-block rates. */
    public boolean widePresent() {
        return wideCoreBytesPerSecond > 0;
    }

    /** Bytes per second each of {@code cores} running cores gathers into one-block rows; 0 when not probed. */
    public double perCoreBytesPerSecond(int cores) {
        return perCore(cores, coreBytesPerSecond, allBytesPerSecond);
    }

    /** The same for rows of {@code blocks} column blocks: the two-block rates from 2 blocks on, where measured. */
    public double perCoreBytesPerSecond(int cores, int blocks) {
        return blocks >= 2 && widePresent() ? perCore(cores, wideCoreBytesPerSecond, wideAllBytesPerSecond) : perCoreBytesPerSecond(cores);
    }

    /**
     * The overlap the rate of rows of {@code blocks} column blocks was solved with (the two-block
     * one from 2 blocks on, where measured), else {@code fallback}: the spec's in-core overlap, with
     * which files before 7 Dec 2026 solved their rates.
     */
    public double overlap(int blocks, double fallback) {
        double o = blocks >= 2 && widePresent() ? wideOverlap : overlap;
        return Double.isNaN(o) ? fallback : o;
    }

    private double perCore(int cores, double core, double all) {
        if (!present()) return 0;
        if (cores <= 1 || all <= 0 || threads <= 1) return core;
        return Math.min(core, all / threads);
    }
}
