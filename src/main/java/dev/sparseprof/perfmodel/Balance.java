package dev.sparseprof.perfmodel;

/**
 * The outcome of one work-distribution scheme: the slowest unit's work over the mean unit's work
 * ({@code factor >= 1}), in the scheme's work units (non-zeros plus one per row, or GEMM tiles).
 */
public record Balance(String schedule, double factor, double maxWork, double meanWork) {
    public Balance {
        if (!(factor >= 1 - 1e-9)) throw new IllegalArgumentException(schedule + ": imbalance factor " + factor + " < 1");
    }

    public static Balance of(String schedule, double maxWork, double meanWork) {
        return new Balance(schedule, meanWork > 0 ? Math.max(1, maxWork / meanWork) : 1, maxWork, meanWork);
    }
}
