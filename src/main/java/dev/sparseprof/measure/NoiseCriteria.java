package dev.sparseprof.measure;

import dev.sparseprof.util.SparseprofException;
import java.util.Locale;

/**
 * When a case's timed repetitions are too noisy to fit: the interquartile range over the median
 * above {@code maxSpread}, the slowest over the fastest repetition above {@code maxRange}, the
 * first third's median over the last third's above {@code maxDrift} (still warming up, or the
 * machine's load changed during the case), or the process page-faulting more than
 * {@code maxFaultsPerRun} times per run ({@link TimingHarness.Samples#faultsPerRun}; {@link PageFaults}: the JVM touching fresh heap
 * pages, which can slow every run of a case alike, so that none of the other criteria sees it), or
 * the machine running below {@code minSpeed} of its best speed in the run while the case was
 * timed ({@link dev.sparseprof.measure.probe.SpeedCanary}: another tenant on the physical core slows every run alike too;
 * judged for FMA-bound kernels only, and calling for no re-run on its own: {@link CpuMeasureRun}).
 * A noisy case is re-run up to {@code retries} more times and the least noisy attempt is kept
 * ({@link CpuMeasureRun}).
 */
public record NoiseCriteria(double maxSpread, double maxRange, double maxDrift, double maxFaultsPerRun, double minSpeed, int retries) {
    /**
     * Page faults per timed run past which a case is noisy: after its warm-up a kernel faults in
     * no page, and one fault a run is 4 KiB of fresh memory touched every call.
     */
    private static final double DEFAULT_MAX_FAULTS_PER_RUN = 1.0;
    /**
     * The machine's speed (the canary's reading over its best in the run) below which a case is
     * noisy: the FMA loop's readings on a quiet machine stay within a few per cent of their best
     * (216-228 GFLOP/s on the Zen 5 VM), a tenant episode took them to 0.72-0.83.
     */
    private static final double DEFAULT_MIN_SPEED = 0.90;

    /** IQR 10 % of the median, max/min 2, first third 15 % slower than the last, 1 page fault per run, 0.9 of the best speed, 2 re-runs. */
    public static final NoiseCriteria DEFAULT = new NoiseCriteria(0.10, 2.0, 1.15, DEFAULT_MAX_FAULTS_PER_RUN, DEFAULT_MIN_SPEED, 2);

    public NoiseCriteria {
        if (!(maxSpread > 0)) throw new SparseprofException("--max-spread must be positive, got " + maxSpread);
        if (!(maxRange > 1)) throw new SparseprofException("--max-range must be above 1, got " + maxRange);
        if (!(maxDrift > 1)) throw new SparseprofException("noise: drift bound must be above 1, got " + maxDrift);
        if (!(maxFaultsPerRun > 0)) throw new SparseprofException("noise: page-fault bound must be positive, got " + maxFaultsPerRun);
        if (!(minSpeed > 0 && minSpeed < 1)) throw new SparseprofException("noise: speed bound must lie in (0, 1), got " + minSpeed);
        if (retries < 0) throw new SparseprofException("--retries must not be negative, got " + retries);
    }

    /** The default speed bound. */
    public NoiseCriteria(double maxSpread, double maxRange, double maxDrift, double maxFaultsPerRun, int retries) {
        this(maxSpread, maxRange, maxDrift, maxFaultsPerRun, DEFAULT_MIN_SPEED, retries);
    }

    /** The default page-fault and speed bounds. */
    public NoiseCriteria(double maxSpread, double maxRange, double maxDrift, int retries) {
        this(maxSpread, maxRange, maxDrift, DEFAULT_MAX_FAULTS_PER_RUN, retries);
    }

    /** A case's noise: the criterion it passed ({@link NoiseCriterion#NONE}: none) and the reason the table prints. */
    public record Verdict(NoiseCriterion criterion, String reason) {
        /** Within every bound. */
        public static final Verdict QUIET = new Verdict(NoiseCriterion.NONE, "");

        public boolean noisy() {
            return criterion != NoiseCriterion.NONE;
        }
    }

    /**
     * Whether {@code t} is noisy: the first bound it passes, with its reason ({@link Verdict#QUIET}
     * where none). {@code drift}: first third's median over the last third's (1 when unknown);
     * {@code faultsPerRun}: the process's page faults per timed run (NaN when unknown);
     * {@code speed}: the machine's speed while it was timed, over its best in the run
     * ({@link dev.sparseprof.measure.probe.SpeedCanary}; NaN when unknown).
     */
    public Verdict judge(Timing t, double drift, double faultsPerRun, double speed) {
        double spread = t.spread();
        if (spread > maxSpread) return new Verdict(NoiseCriterion.IQR, String.format(Locale.ROOT, "IQR %.0f%% of median", 100 * spread));
        double range = t.maxSeconds() / t.minSeconds();
        if (range > maxRange) return new Verdict(NoiseCriterion.RANGE, String.format(Locale.ROOT, "max/min %.2f", range));
        if (drift > maxDrift) return new Verdict(NoiseCriterion.DRIFT, String.format(Locale.ROOT, "drift %.2f (first third over last)", drift));
        if (faultsPerRun > maxFaultsPerRun) {
            return new Verdict(NoiseCriterion.PAGE_FAULTS, String.format(Locale.ROOT, "page faults %.1f per run (fresh heap pages)", faultsPerRun));
        }
        return slowness(speed);
    }

    /**
     * Whether a case timed at {@code speed} of the run's best canary reading is noisy by the canary
     * ({@link Verdict#QUIET} where not, or NaN: not read, nothing judged).
     */
    Verdict slowness(double speed) {
        return speed < minSpeed ? new Verdict(NoiseCriterion.CANARY, slowMachine(speed)) : Verdict.QUIET;
    }

    /** The reason a case timed at {@code speed} of the run's best canary reading gives. */
    private static String slowMachine(double speed) {
        return String.format(Locale.ROOT, "FMA canary at %.2f of its best", speed);
    }

    /**
     * Whether {@code s} is noisy only because the FMA canary read low while it was timed (its
     * reason is the canary's): its repetitions were sound, the core's FP pipes were shared.
     */
    public static boolean timedSlow(Stability s) {
        return s.criterion() == NoiseCriterion.CANARY;
    }

    /** {@link #excess(Timing, double, double)} with the page faults unknown. */
    public double excess(Timing t, double drift) {
        return excess(t, drift, Double.NaN);
    }

    /** {@link #excess(Timing, double, double, double)} with the machine's speed unknown. */
    public double excess(Timing t, double drift, double faultsPerRun) {
        return excess(t, drift, faultsPerRun, Double.NaN);
    }

    /**
     * How far past its bounds {@code t} is (0 within all of them): orders attempts, the least noisy
     * first. A speed below the bound counts by the deficit over the bound's band (0.8 against 0.9:
     * 1, as twice the IQR bound counts 1).
     */
    public double excess(Timing t, double drift, double faultsPerRun, double speed) {
        double faults = faultsPerRun > maxFaultsPerRun ? faultsPerRun / maxFaultsPerRun - 1 : 0;
        double slow = speed < minSpeed ? (minSpeed - speed) / (1 - minSpeed) : 0;
        return Math.max(0, t.spread() / maxSpread - 1) + Math.max(0, (t.maxSeconds() / t.minSeconds() - 1) / (maxRange - 1) - 1)
                + Math.max(0, (drift - 1) / (maxDrift - 1) - 1) + faults + slow;
    }
}
