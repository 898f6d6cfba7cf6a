package dev.sparseprof.perfmodel;

import java.util.List;

/**
 * The memsim replay held against the analytical traffic of the same (sampled) problem: a GPU
 * layer's traffic is the analytical tile-level model, and the replay of {@code sample} (a row
 * sample of the layer at a capped N, small enough to replay every SM) checks it level by level.
 * {@code levels} are the levels compared (those where the traced kernel and the modelled one route
 * their bytes alike), {@code replayBytes} and {@code analyticalBytes} their bytes arriving;
 * {@code layer} names the layer the sample was taken from (one check serves the layers of its
 * format, shape, N and density).
 */
public record TrafficCheck(String layer, String sample, List<String> levels, double[] replayBytes, double[] analyticalBytes) {
    /** A difference above this share is flagged (issue 11: "say where they differ by more than 10%"). */
    public static final double TOLERANCE = 0.10;

    public TrafficCheck {
        levels = List.copyOf(levels);
        replayBytes = replayBytes.clone();
        analyticalBytes = analyticalBytes.clone();
        if (replayBytes.length != levels.size() || analyticalBytes.length != levels.size()) {
            throw new IllegalArgumentException("one entry per compared level");
        }
    }

    /** {@code analytical / replay - 1} at level {@code i} (0 when both are 0, infinite when only the replay is). */
    public double relativeDifference(int i) {
        double r = replayBytes[i];
        double a = analyticalBytes[i];
        if (r == 0) return a == 0 ? 0 : Double.POSITIVE_INFINITY;
        return a / r - 1;
    }

    /** The compared level where the two differ most, by absolute relative difference. */
    public int worstLevel() {
        int worst = 0;
        for (int i = 1; i < levels.size(); i++) if (Math.abs(relativeDifference(i)) > Math.abs(relativeDifference(worst))) worst = i;
        return worst;
    }

    /** Whether some compared level differs by more than {@link #TOLERANCE}. */
    public boolean exceedsTolerance() {
        return Math.abs(relativeDifference(worstLevel())) > TOLERANCE;
    }

    @Override
    public double[] replayBytes() {
        return replayBytes.clone();
    }

    @Override
    public double[] analyticalBytes() {
        return analyticalBytes.clone();
    }
}
