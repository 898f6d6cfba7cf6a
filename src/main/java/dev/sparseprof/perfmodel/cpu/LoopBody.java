package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.hw.InCoreRates;
import java.util.function.ToDoubleFunction;

/**
 * One unit of work of a CPU kernel's loop nest that the probe times ({@link InCoreRates}), and the
 * rate it is counted at. {@link LoopCounts} holds how many of each one call executes.
 * {@link Part} says where a body's cycles go: with the rest of the in-core time, only where the probe
 * measured the fixed parts apart (an older probe's per-block and per-slot rates carry them), or with
 * the N:M decode, which may run in series ({@link InCoreRates#nmDecodeSerial}).
 */
public enum LoopBody {
    /** A vector FMA of the dense GEMM's wide micro-kernel. */
    DENSE_FMA(Part.CORE, InCoreRates::denseFmaCycles),
    /** A vector FMA of the dense GEMM's one-vector (8 x 1) micro-kernel. */
    DENSE_NARROW_FMA(Part.CORE, InCoreRates::denseNarrowFmaCycles),
    /** An entry of the broadcast row body's 8-vector column block. */
    BLOCK8_ENTRY(Part.CORE, InCoreRates::block8Cycles),
    /** An entry of a 4-vector column block. */
    BLOCK4_ENTRY(Part.CORE, InCoreRates::block4Cycles),
    /** An entry of the tight all-rows loop at two vectors. */
    BLOCK2_ENTRY(Part.CORE, InCoreRates::block2Cycles),
    /** An entry of the tight all-rows loop at one vector. */
    ONE_VECTOR_ENTRY(Part.CORE, InCoreRates::oneVectorCycles),
    /** A row and column block of the general path: its dispatch and C stores. */
    ROW_BLOCK(Part.CORE, InCoreRates::rowBlockCycles),
    /** A row of the tight all-rows loops. */
    WHOLE_ROW(Part.CORE, InCoreRates::wholeRowCycles),
    /** An entry of the general path's 2-vector block. */
    SPLIT2_ENTRY(Part.CORE, InCoreRates::generalBlock2Cycles),
    /** An entry of the general path's 1-vector block (and its masked tail). */
    SPLIT1_ENTRY(Part.CORE, InCoreRates::generalBlock1Cycles),
    /** A triple of COO's run search (a vector compare per lane group of row indices). */
    COO_ENTRY(Part.CORE, InCoreRates::cooEntryCycles),
    /** A row run of COO's run search. */
    COO_ROW(Part.CORE, InCoreRates::cooRowCycles),
    /** A BSR block's 4-column slice of a register tile on a wide strip. */
    BSR_WIDE(Part.CORE, InCoreRates::bsrWideCycles),
    /** The same on a one-vector (or masked) strip. */
    BSR_NARROW(Part.CORE, InCoreRates::bsrNarrowCycles),
    /** A BSR register tile and strip: its C stores and set-up. */
    BSR_TILE(Part.FIXED, InCoreRates::bsrTileCycles),
    /** A kept slot of the N:M decode. */
    NM_SLOT(Part.DECODE, InCoreRates::nmSlotCycles),
    /** A row of the N:M decode. */
    NM_ROW(Part.DECODE_FIXED, InCoreRates::nmRowCycles),
    /** A whole vector of the gather dot at N = 1. */
    SPMV_VECTOR(Part.CORE, r -> r.oneColumn().spmvVectorCycles()),
    /** A row of the gather dot at N = 1: its reduction and store. */
    SPMV_ROW(Part.CORE, r -> r.oneColumn().spmvRowCycles()),
    /** A scalar tail entry of the gather dot at N = 1. */
    SPMV_TAIL(Part.CORE, r -> r.oneColumn().spmvTailCycles()),
    /** A vector FMA of the matrix-vector product at N = 1. */
    GEMV_FMA(Part.CORE, r -> r.oneColumn().gemvFmaCycles()),
    /** A row of the matrix-vector product at N = 1: its reduction and store. */
    GEMV_ROW(Part.CORE, r -> r.oneColumn().gemvRowCycles()),
    /** A slot vector of a SELL chunk, per column of B (C rows' slots: a gather and an FMA). */
    SELL_SLOT(Part.CORE, r -> r.oneColumn().sellSlotCycles()),
    /** A SELL chunk and column of B: its stores through the permutation. */
    SELL_CHUNK(Part.CORE, r -> r.oneColumn().sellChunkCycles());

    /** Where a body's cycles are counted. */
    enum Part {
        /** Always, with the call's in-core time. */
        CORE,
        /** Only where the probe measured the fixed parts apart ({@link InCoreRates#fixedPartsApart}). */
        FIXED,
        /** With the N:M decode. */
        DECODE,
        /** With the N:M decode, only where the probe measured the fixed parts apart. */
        DECODE_FIXED
    }

    final Part part;
    private final ToDoubleFunction<InCoreRates> rate;

    LoopBody(Part part, ToDoubleFunction<InCoreRates> rate) {
        this.part = part;
        this.rate = rate;
    }

    /** Probed cycles per unit of this body. */
    double cycles(InCoreRates r) {
        return rate.applyAsDouble(r);
    }

    /** Whether this body's cycles count at all on a spec with these rates. */
    boolean counted(InCoreRates r) {
        return (part != Part.FIXED && part != Part.DECODE_FIXED) || r.fixedPartsApart();
    }

    boolean decode() {
        return part == Part.DECODE || part == Part.DECODE_FIXED;
    }
}
