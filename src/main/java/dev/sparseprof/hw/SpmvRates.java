package dev.sparseprof.hw;

/**
 * The in-core rates of csr's one-column body ({@code kernel.GatherRows}, the kernel's path at
 * N = 1: a decode step's one token), in cycles of the spec's clock, as {@code calibrate --probe}
 * measures them with the row's values, indices and B in L1: {@code vectorCycles} per whole vector
 * of a row's entries (a value load, an index load, a gather of B, an FMA), {@code rowCycles} per
 * row (the lane reduction, the store, the loop's set-up), {@code tailCycles} per entry of the
 * scalar tail ({@code length mod L} entries, a chain of scalar FMAs). Spec keys {@code spmvVector},
 * {@code spmvRow}, {@code spmvTail}, written together.
 *
 * <p>Contract: {@link #present} when probed (files since 7 Dec 2026, 22:00 UTC); {@link #NONE}
 * otherwise, and then the model counts csr at N = 1 as the broadcast body those files' probes
 * measured, which the kernel ran at N = 1 before then.
 */
public record SpmvRates(double vectorCycles, double rowCycles, double tailCycles) {
    public static final SpmvRates NONE = new SpmvRates(0, 0, 0);

    public SpmvRates {
        for (double v : new double[] {vectorCycles, rowCycles, tailCycles}) {
            if (!(v >= 0) || Double.isInfinite(v)) throw new SpecException("cpu.inCore: spmv cycles must be finite and not negative, got " + v);
        }
    }

    /** Whether the probe measured the one-column body (its per-vector rate is positive). */
    public boolean present() {
        return vectorCycles > 0;
    }
}
