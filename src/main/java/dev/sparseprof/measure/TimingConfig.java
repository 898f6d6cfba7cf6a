package dev.sparseprof.measure;

import dev.sparseprof.util.SparseprofException;

/**
 * How a kernel is timed: at least {@code warmupRuns} untimed runs and at least
 * {@code minWarmupSeconds} of them (so that the JIT has compiled the loops), then
 * {@code repetitions} timed runs.
 */
public record TimingConfig(int warmupRuns, double minWarmupSeconds, int repetitions) {
    public TimingConfig {
        if (warmupRuns < 0) throw new SparseprofException("warm-up runs must not be negative, got " + warmupRuns);
        if (!(minWarmupSeconds >= 0)) throw new SparseprofException("warm-up time must not be negative, got " + minWarmupSeconds);
        if (repetitions < 1) throw new SparseprofException("--reps must be at least 1, got " + repetitions);
    }

    public static TimingConfig defaults() { return new TimingConfig(5, 0.3, 15); }

    public TimingConfig withRepetitions(int reps) { return new TimingConfig(warmupRuns, minWarmupSeconds, reps); }
}
