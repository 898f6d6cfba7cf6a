package dev.sparseprof.measure;

import dev.sparseprof.util.SparseprofException;
import java.util.Locale;

/**
 * When a case's timed repetitions are too noisy to fit: the interquartile range over the median
 * above {@code maxSpread}, the slowest over the fastest repetition above {@code maxRange}, the
 * first third's median over the last third's above {@code maxDrift} (still warming up, or the
 * machine's load changed during the case), or the process page-faulting more than
 * {@code maxFaultsPerRun} times per timed run ({@link PageFaults}: the JVM touching fresh heap
 * pages, which can slow every run of a case alike, so that none of the other criteria sees it).
 * A noisy case is re-run up to {@code retries} more times and the least noisy attempt is kept
 * ({@link CpuMeasureRun}).
 */
public record NoiseCriteria(double maxSpread, double maxRange, double maxDrift, double maxFaultsPerRun, int retries) {
    /**
     * Page faults per timed run past which a case is noisy: after its warm-up a kernel faults in
     * no page, and one fault a run is 4 KiB of fresh memory touched every call.
     */
    private static final double DEFAULT_MAX_FAULTS_PER_RUN = 1.0;

    /** IQR 10 % of the median, max/min 2, first third 15 % slower than the last, 1 page fault per run, 2 re-runs. */
    public static final NoiseCriteria DEFAULT = new NoiseCriteria(0.10, 2.0, 1.15, DEFAULT_MAX_FAULTS_PER_RUN, 2);

    public NoiseCriteria {
        if (!(maxSpread > 0)) throw new SparseprofException("--max-spread must be positive, got " + maxSpread);
        if (!(maxRange > 1)) throw new SparseprofException("--max-range must be above 1, got " + maxRange);
        if (!(maxDrift > 1)) throw new SparseprofException("noise: drift bound must be above 1, got " + maxDrift);
        if (!(maxFaultsPerRun > 0)) throw new SparseprofException("noise: page-fault bound must be positive, got " + maxFaultsPerRun);
        if (retries < 0) throw new SparseprofException("--retries must not be negative, got " + retries);
    }

    /** The default page-fault bound. */
    public NoiseCriteria(double maxSpread, double maxRange, double maxDrift, int retries) {
        this(maxSpread, maxRange, maxDrift, DEFAULT_MAX_FAULTS_PER_RUN, retries);
    }

    /** {@link #verdict(Timing, double, double)} with the page faults unknown. */
    public String verdict(Timing t, double drift) {
        return verdict(t, drift, Double.NaN);
    }

    /**
     * Why {@code t} is noisy, or the empty string. {@code drift}: first third's median over the
     * last third's (1 when unknown); {@code faultsPerRun}: the process's page faults per timed run
     * (NaN when unknown).
     */
    public String verdict(Timing t, double drift, double faultsPerRun) {
        double spread = t.spread();
        if (spread > maxSpread) return String.format(Locale.ROOT, "IQR %.0f%% of median", 100 * spread);
        double range = t.maxSeconds() / t.minSeconds();
        if (range > maxRange) return String.format(Locale.ROOT, "max/min %.2f", range);
        if (drift > maxDrift) return String.format(Locale.ROOT, "drift %.2f (first third over last)", drift);
        if (faultsPerRun > maxFaultsPerRun) return String.format(Locale.ROOT, "page faults %.1f per run (fresh heap pages)", faultsPerRun);
        return "";
    }

    /** {@link #excess(Timing, double, double)} with the page faults unknown. */
    public double excess(Timing t, double drift) {
        return excess(t, drift, Double.NaN);
    }

    /** How far past its bounds {@code t} is (0 within all of them): orders attempts, the least noisy first. */
    public double excess(Timing t, double drift, double faultsPerRun) {
        double faults = faultsPerRun > maxFaultsPerRun ? faultsPerRun / maxFaultsPerRun - 1 : 0;
        return Math.max(0, t.spread() / maxSpread - 1) + Math.max(0, (t.maxSeconds() / t.minSeconds() - 1) / (maxRange - 1) - 1)
                + Math.max(0, (drift - 1) / (maxDrift - 1) - 1) + faults;
    }
}
