package dev.sparseprof.measure;

import java.util.Locale;

/**
 * How trustworthy one measured case is: whether its warm-up settled ({@code warmupRuns} untimed
 * runs until successive warm-up rounds agreed, {@link TimingHarness#warmUp}), how many times its
 * timed repetitions were taken ({@code attempts}: 1, or more when a noisy attempt was re-run), and
 * whether the attempt kept is still noisy by {@link NoiseCriteria} ({@code criterion} says which,
 * {@link NoiseCriterion#NONE} when not noisy, and {@code reason} in words with its figure, empty when
 * not noisy); {@code canaryGflops}, the machine's speed meter while the kept
 * attempt was timed ({@link dev.sparseprof.measure.probe.SpeedCanary}: the median of its rounds' readings, GFLOP/s of the
 * slowest thread), and {@code speed}, that over the run's best (NaN where not read, as in files
 * written before it). {@link #UNKNOWN} is what files written before this record carry.
 */
public record Stability(boolean warmupSettled, int warmupRuns, int attempts, boolean noisy, String reason, NoiseCriterion criterion,
                        double canaryGflops, double speed) {
    public static final Stability UNKNOWN = new Stability(true, 0, 1, false, "");

    /** No speed reading; the criterion as the reason names it (a file written before the criterion was kept). */
    public Stability(boolean warmupSettled, int warmupRuns, int attempts, boolean noisy, String reason) {
        this(warmupSettled, warmupRuns, attempts, noisy, reason, Double.NaN, Double.NaN);
    }

    /** The criterion as the reason names it (a file written before the criterion was kept). */
    public Stability(boolean warmupSettled, int warmupRuns, int attempts, boolean noisy, String reason, double canaryGflops, double speed) {
        this(warmupSettled, warmupRuns, attempts, noisy, reason, NoiseCriterion.ofLegacyReason(noisy, reason),
                canaryGflops, speed);
    }

    public Stability {
        if (warmupRuns < 0 || attempts < 1) throw new IllegalArgumentException("stability: negative warm-up runs or no attempt");
        if (reason == null) reason = "";
        if (noisy && reason.isEmpty()) throw new IllegalArgumentException("stability: a noisy case names its reason");
        if (criterion == null || noisy != (criterion != NoiseCriterion.NONE)) {
            throw new IllegalArgumentException("stability: a noisy case names its criterion, a quiet one none (" + criterion + ")");
        }
    }

    /** The table's cell: {@code ok}, {@code ok (2 tries)}, {@code noisy: IQR 14% of median (3 tries)}, {@code unsettled warm-up}. */
    public String label() {
        String tries = attempts > 1 ? String.format(Locale.ROOT, " (%d tries)", attempts) : "";
        String warm = warmupSettled ? "" : ", warm-up unsettled";
        return (noisy ? "noisy: " + reason : "ok") + tries + warm;
    }
}
