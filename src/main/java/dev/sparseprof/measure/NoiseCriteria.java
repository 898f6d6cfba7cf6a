package dev.sparseprof.measure;

import dev.sparseprof.util.SparseprofException;
import java.util.Locale;

/**
 * When a case's timed repetitions are too noisy to fit: the interquartile range over the median
 * above {@code maxSpread}, the slowest over the fastest repetition above {@code maxRange}, or the
 * first third's median over the last third's above {@code maxDrift} (still warming up, or the
 * machine's load changed during the case). A noisy case is re-run up to {@code retries} more times
 * and the least noisy attempt is kept ({@link CpuMeasureRun}).
 */
public record NoiseCriteria(double maxSpread, double maxRange, double maxDrift, int retries) {
    /** IQR 10 % of the median, max/min 2, first third 15 % slower than the last, 2 re-runs. */
    public static final NoiseCriteria DEFAULT = new NoiseCriteria(0.10, 2.0, 1.15, 2);

    public NoiseCriteria {
        if (!(maxSpread > 0)) throw new SparseprofException("--max-spread must be positive, got " + maxSpread);
        if (!(maxRange > 1)) throw new SparseprofException("--max-range must be above 1, got " + maxRange);
        if (!(maxDrift > 1)) throw new SparseprofException("noise: drift bound must be above 1, got " + maxDrift);
        if (retries < 0) throw new SparseprofException("--retries must not be negative, got " + retries);
    }

    /** Why {@code t} is noisy, or the empty string. {@code drift}: first third's median over the last third's (1 when unknown). */
    public String verdict(Timing t, double drift) {
        double spread = t.spread();
        if (spread > maxSpread) return String.format(Locale.ROOT, "IQR %.0f%% of median", 100 * spread);
        double range = t.maxSeconds() / t.minSeconds();
        if (range > maxRange) return String.format(Locale.ROOT, "max/min %.2f", range);
        if (drift > maxDrift) return String.format(Locale.ROOT, "drift %.2f (first third over last)", drift);
        return "";
    }

    /** How far past its bounds {@code t} is (0 within all of them): orders attempts, the least noisy first. */
    public double excess(Timing t, double drift) {
        return Math.max(0, t.spread() / maxSpread - 1) + Math.max(0, (t.maxSeconds() / t.minSeconds() - 1) / (maxRange - 1) - 1)
                + Math.max(0, (drift - 1) / (maxDrift - 1) - 1);
    }
}
