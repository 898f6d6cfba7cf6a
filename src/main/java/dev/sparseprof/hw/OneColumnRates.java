package dev.sparseprof.hw;

/**
 * The in-core rates of the kernels' bodies at N = 1 (a decode step's one token), in cycles of the
 * spec's clock, as {@code calibrate --probe} measures them with every operand in L1:
 * <ul>
 * <li>the gather dot ({@code kernel.GatherRows}: csr over its rows, coo over its row runs, N:M over
 *     its decoded slots): {@code spmvVectorCycles} per whole vector of a row's entries (a value
 *     load, an index load, a gather of B, an FMA), {@code spmvRowCycles} per row (the lane
 *     reduction, the store, the loops' exits), {@code spmvTailCycles} per entry of the scalar tail
 *     ({@code length mod L} entries); spec keys {@code spmvVector}, {@code spmvRow},
 *     {@code spmvTail}, written together;
 * <li>the dense matrix-vector product ({@code kernel.DenseGemv}): {@code gemvFmaCycles} per vector
 *     FMA (one vector of A's row and, per four rows, one of B), {@code gemvRowCycles} per row (the
 *     reduction, the scalar tail of K, the store); spec keys {@code gemvFma}, {@code gemvRow},
 *     written together.
 * </ul>
 * Contract: {@link #spmvPresent} and {@link #gemvPresent} say which were probed (files since 7 Dec
 * 2026, 21:18 and 21:49 UTC); where not, the model counts the broadcast body and the GEMM's
 * one-vector micro-kernel that those files' probes measured, which the kernels ran at N = 1 then.
 */
public record OneColumnRates(double spmvVectorCycles, double spmvRowCycles, double spmvTailCycles, double gemvFmaCycles, double gemvRowCycles) {
    public static final OneColumnRates NONE = new OneColumnRates(0, 0, 0, 0, 0);

    public OneColumnRates {
        for (double v : new double[] {spmvVectorCycles, spmvRowCycles, spmvTailCycles, gemvFmaCycles, gemvRowCycles}) {
            if (!(v >= 0) || Double.isInfinite(v)) throw new SpecException("cpu.inCore: one-column cycles must be finite and not negative, got " + v);
        }
    }

    /** Whether the probe measured the gather dot (its per-vector rate is positive). */
    public boolean spmvPresent() {
        return spmvVectorCycles > 0;
    }

    /** Whether the probe measured the dense matrix-vector product (its per-FMA rate is positive). */
    public boolean gemvPresent() {
        return gemvFmaCycles > 0;
    }
}
