package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.hw.InCoreRates;

/**
 * What one CPU kernel's loop nest executes for one workload at one SIMD width, in the units the
 * probe's in-core rates are measured in ({@link InCoreRates}): dense micro-kernel vector FMAs,
 * row-body entries of 8-, 4-, 2- and 1-vector column blocks, row/column-block setups of the
 * general path (its 2- and 1-vector blocks apart from the tight loops' entries) and rows of the
 * tight all-rows loops, COO run-search
 * triples and rows, BSR block strips and register tiles (per strip), N:M decoded slots and rows,
 * the gather dot at N = 1 (whole vectors of a row's entries, rows, scalar tail entries) and the
 * dense matrix-vector product at N = 1 (vector FMAs, rows).
 * {@link #cycles} is the in-core time (ECM's T_core) of the whole call on one core.
 */
public record LoopCounts(double denseFmas, double denseNarrowFmas, double block8Entries, double block4Entries, double block2Entries,
                         double oneVectorEntries, double rowBlocks, double wholeRows, double cooEntries, double cooRows, double bsrWide, double bsrNarrow, double nmSlots,
                         double bsrTiles, double nmRows, double split2Entries, double split1Entries, double spmvVectors, double spmvRows,
                         double spmvTails, double gemvFmas, double gemvRows) {
    public static final LoopCounts ZERO = new LoopCounts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public LoopCounts {
        double[] all = {denseFmas, denseNarrowFmas, block8Entries, block4Entries, block2Entries, oneVectorEntries, rowBlocks, wholeRows, cooEntries, cooRows, bsrWide, bsrNarrow, nmSlots, bsrTiles, nmRows, split2Entries, split1Entries, spmvVectors, spmvRows, spmvTails, gemvFmas, gemvRows};
        for (double v : all) if (!(v >= 0)) throw new IllegalArgumentException("loop counts must not be negative, got " + v);
    }

    /**
     * T_core in cycles: every count at its probed rate; the BSR tiles and N:M rows only where the
     * probe measured their fixed parts apart ({@link InCoreRates#fixedPartsApart}; an older probe's
     * per-block and per-slot rates carry them). Where the N:M decode runs in series with the body
     * ({@link InCoreRates#nmDecodeSerial}) it is not here but in {@link #serialCycles}.
     */
    public double cycles(InCoreRates r) {
        return denseFmas * r.denseFmaCycles() + denseNarrowFmas * r.denseNarrowFmaCycles() + block8Entries * r.block8Cycles()
                + block4Entries * r.block4Cycles() + block2Entries * r.block2Cycles() + oneVectorEntries * r.oneVectorCycles()
                + rowBlocks * r.rowBlockCycles() + wholeRows * r.wholeRowCycles() + cooEntries * r.cooEntryCycles()
                + cooRows * r.cooRowCycles() + bsrWide * r.bsrWideCycles() + bsrNarrow * r.bsrNarrowCycles()
                + split2Entries * r.generalBlock2Cycles() + split1Entries * r.generalBlock1Cycles()
                + spmvVectors * r.oneColumn().spmvVectorCycles() + spmvRows * r.oneColumn().spmvRowCycles() + spmvTails * r.oneColumn().spmvTailCycles()
                + gemvFmas * r.oneColumn().gemvFmaCycles() + gemvRows * r.oneColumn().gemvRowCycles()
                + (r.fixedPartsApart() ? bsrTiles * r.bsrTileCycles() : 0)
                + (r.nmDecodeSerial() ? 0 : nmDecodeCycles(r));
    }

    /**
     * The cycles that run in series with the rest of the call, no transfer hiding behind them: the
     * N:M decode pass where the probe measured it alone ({@link InCoreRates#nmDecodeSerial}), else 0.
     */
    public double serialCycles(InCoreRates r) {
        return r.nmDecodeSerial() ? nmDecodeCycles(r) : 0;
    }

    private double nmDecodeCycles(InCoreRates r) {
        return nmSlots * r.nmSlotCycles() + (r.fixedPartsApart() ? nmRows * r.nmRowCycles() : 0);
    }

    public LoopCounts plus(LoopCounts o) {
        return new LoopCounts(denseFmas + o.denseFmas, denseNarrowFmas + o.denseNarrowFmas, block8Entries + o.block8Entries,
                block4Entries + o.block4Entries, block2Entries + o.block2Entries, oneVectorEntries + o.oneVectorEntries, rowBlocks + o.rowBlocks,
                wholeRows + o.wholeRows, cooEntries + o.cooEntries, cooRows + o.cooRows,
                bsrWide + o.bsrWide, bsrNarrow + o.bsrNarrow, nmSlots + o.nmSlots, bsrTiles + o.bsrTiles, nmRows + o.nmRows,
                split2Entries + o.split2Entries, split1Entries + o.split1Entries, spmvVectors + o.spmvVectors, spmvRows + o.spmvRows,
                spmvTails + o.spmvTails, gemvFmas + o.gemvFmas, gemvRows + o.gemvRows);
    }
}
