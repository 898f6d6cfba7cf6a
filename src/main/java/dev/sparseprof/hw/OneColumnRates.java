package dev.sparseprof.hw;

/**
 * The in-core rates of the kernels' bodies at N = 1 (a decode step's one token), in cycles of the
 * spec's clock, as {@code calibrate --probe} measures them with every operand in L1, and the
 * matrix-vector product's streams of A from L2 and L3:
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
 *     written together; and {@code gemvL2BytesPerSecond} and {@code gemvL3BytesPerSecond}, the
 *     bytes of A one core streams per second in whole calls from its L2 (a matrix filling half the
 *     L2) and from L3 (four times the L2, where L3 holds twice that; else 0), the in-core work
 *     included and the call's fixed cost taken out: the pace of the product's four row streams,
 *     not the probe's one-stream reads; spec keys {@code gemvL2}, {@code gemvL3}, written with the
 *     pair since 8 Dec 2026 (0 in files before);
 * <li>SELL-C-sigma ({@code kernel.SellSpmm}), which runs the one-column body once per column of B:
 *     {@code sellSlotCycles} per slot vector of a chunk (a value load, an index load, a gather of
 *     B's transposed column, an FMA: C rows' slots at once), {@code sellChunkCycles} per chunk and
 *     column (the vector store and the C scalar stores through the permutation, the loop's exit),
 *     {@code sellTransposeCycles} per element of B transposed into scratch before the chunks (each
 *     thread its whole own copy); spec keys {@code sellSlot}, {@code sellChunk},
 *     {@code sellTranspose}, written together.
 * </ul>
 * Contract: {@link #spmvPresent}, {@link #gemvPresent} and {@link #sellPresent} say which were
 * probed (files since 7 Dec 2026, 21:18 and 21:49 UTC, and 8 Dec for SELL), {@link #gemvL2Present}
 * and {@link #gemvL3Present} whether the product's L2 and L3 rates were; where the first two were
 * not, the model counts the broadcast body and the GEMM's one-vector micro-kernel that those files'
 * probes measured, which the kernels ran at N = 1 then; where SELL's were not, SELL is not predicted;
 * where the L2 rate was not, the product's bytes move at the probe's one-stream reads.
 */
public record OneColumnRates(double spmvVectorCycles, double spmvRowCycles, double spmvTailCycles, double gemvFmaCycles, double gemvRowCycles,
                             double sellSlotCycles, double sellChunkCycles, double sellTransposeCycles, double gemvL2BytesPerSecond,
                             double gemvL3BytesPerSecond) {
    public static final OneColumnRates NONE = new OneColumnRates(0, 0, 0, 0, 0);

    public OneColumnRates {
        for (double v : new double[] {spmvVectorCycles, spmvRowCycles, spmvTailCycles, gemvFmaCycles, gemvRowCycles, sellSlotCycles, sellChunkCycles,
            sellTransposeCycles, gemvL2BytesPerSecond, gemvL3BytesPerSecond}) {
            if (!(v >= 0) || Double.isInfinite(v)) throw new SpecException("cpu.inCore: one-column rates must be finite and not negative, got " + v);
        }
        if ((gemvL2BytesPerSecond > 0 || gemvL3BytesPerSecond > 0) && !(gemvFmaCycles > 0)) {
            throw new SpecException("cpu.inCore: gemvL2 and gemvL3 need gemvFma and gemvRow (a probe writes them together)");
        }
    }

    /** Without the matrix-vector product's L2 and L3 rates (files before 8 Dec 2026). */
    public OneColumnRates(double spmvVectorCycles, double spmvRowCycles, double spmvTailCycles, double gemvFmaCycles, double gemvRowCycles,
                          double sellSlotCycles, double sellChunkCycles, double sellTransposeCycles) {
        this(spmvVectorCycles, spmvRowCycles, spmvTailCycles, gemvFmaCycles, gemvRowCycles, sellSlotCycles, sellChunkCycles, sellTransposeCycles, 0, 0);
    }

    /** The gather dot's and the matrix-vector product's rates, SELL's not probed. */
    public OneColumnRates(double spmvVectorCycles, double spmvRowCycles, double spmvTailCycles, double gemvFmaCycles, double gemvRowCycles) {
        this(spmvVectorCycles, spmvRowCycles, spmvTailCycles, gemvFmaCycles, gemvRowCycles, 0, 0, 0);
    }


    /** Whether the probe measured the gather dot (its per-vector rate is positive). */
    public boolean spmvPresent() {
        return spmvVectorCycles > 0;
    }

    /** Whether the probe measured the dense matrix-vector product (its per-FMA rate is positive). */
    public boolean gemvPresent() {
        return gemvFmaCycles > 0;
    }

    /** Whether the probe measured the matrix-vector product's stream of A from L2. */
    public boolean gemvL2Present() {
        return gemvL2BytesPerSecond > 0;
    }

    /** Whether the probe measured the matrix-vector product's stream of A from L3. */
    public boolean gemvL3Present() {
        return gemvL3BytesPerSecond > 0;
    }

    /** Whether the probe measured SELL's body (its per-slot-vector rate is positive). */
    public boolean sellPresent() {
        return sellSlotCycles > 0;
    }
}
