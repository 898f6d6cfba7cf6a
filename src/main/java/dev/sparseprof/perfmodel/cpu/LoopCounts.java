package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.hw.InCoreRates;

/**
 * What one CPU kernel's loop nest executes for one workload at one SIMD width, in the units the
 * probe's in-core rates are measured in ({@link InCoreRates}): dense micro-kernel vector FMAs,
 * row-body entries per column block and per vector, row/column-block setups, COO run-search
 * triples and rows, BSR block strips, N:M decoded slots. {@link #cycles} is the in-core time
 * (ECM's T_core) of the whole call on one core.
 */
public record LoopCounts(double denseFmas, double denseNarrowFmas, double entryBlocks, double entryVectors, double rowBlocks, double oneVectorEntries,
                         double cooEntries, double cooRows, double bsrWide, double bsrNarrow, double nmSlots) {
    public static final LoopCounts ZERO = new LoopCounts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public LoopCounts {
        double[] all = {denseFmas, denseNarrowFmas, entryBlocks, entryVectors, rowBlocks, oneVectorEntries, cooEntries, cooRows, bsrWide, bsrNarrow, nmSlots};
        for (double v : all) if (!(v >= 0)) throw new IllegalArgumentException("loop counts must not be negative, got " + v);
    }

    /** T_core in cycles: every count at its probed rate. */
    public double cycles(InCoreRates r) {
        return denseFmas * r.denseFmaCycles() + denseNarrowFmas * r.denseNarrowFmaCycles() + entryBlocks * r.entryCycles()
                + entryVectors * r.vectorCycles() + rowBlocks * r.rowBlockCycles() + oneVectorEntries * r.oneVectorCycles() + cooEntries * r.cooEntryCycles()
                + cooRows * r.cooRowCycles() + bsrWide * r.bsrWideCycles() + bsrNarrow * r.bsrNarrowCycles() + nmSlots * r.nmSlotCycles();
    }

    public LoopCounts plus(LoopCounts o) {
        return new LoopCounts(denseFmas + o.denseFmas, denseNarrowFmas + o.denseNarrowFmas, entryBlocks + o.entryBlocks,
                entryVectors + o.entryVectors, rowBlocks + o.rowBlocks, oneVectorEntries + o.oneVectorEntries, cooEntries + o.cooEntries, cooRows + o.cooRows,
                bsrWide + o.bsrWide, bsrNarrow + o.bsrNarrow, nmSlots + o.nmSlots);
    }
}
