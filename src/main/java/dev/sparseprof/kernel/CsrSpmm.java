package dev.sparseprof.kernel;

/**
 * CSR (or ELL) row-split SpMM, broadcast-and-FMA ({@link BroadcastRows}): the deployable CPU
 * kernel for N >= 8; column indices are read from the stored array.
 *
 * <p>Per SIMD vector (L lanes): see {@link BroadcastRows}: per entry 1 value load + broadcast and
 * 1 column-index load per column block, then per vector 1 aligned B load and 1 FMA; per row and
 * block the block's C stores. Tile: 8/4/2/1-vector column blocks, 8 accumulators at most (fits
 * AVX2's 16 registers); N = L runs all rows in one loop. No B panel: B is read from one aligned copy.
 */
public final class CsrSpmm extends SliceKernel {
    /** Over CSR ({@code csr}) or ELL ({@code ell}) slices. */
    CsrSpmm(SliceFormat format) {
        super(format);
    }

    public CsrSpmm() {
        this(SliceFormat.CSR);
    }

    @Override public String name() { return sliceFormat() == SliceFormat.CSR ? "csr" : "ell"; }

    @Override public int scratchFloats(RowSlices a, int n) { return BroadcastRows.TRACE_SCRATCH_FLOATS; }

    @Override public boolean readsAlignedB() { return true; }

    @Override
    void row(Operands<RowSlices> op, int r, int from, int to, Workspace ws) {
        RowSlices a = op.a();
        BroadcastRows.compute(op, new BroadcastRows.Slice(a.values(), a.columnIndices(), 0, from, to, true),
                output(op, r, ws), outputOffset(op, r, ws));
    }

    /**
     * N = one vector exactly (16 on AVX-512, 8 on AVX2) or two (32, 16): all rows in one tight loop,
     * no per-row dispatch.
     */
    @Override
    void wholeRows(Operands<RowSlices> op, int rowStart, int rowEnd, int nzStart, Workspace ws) {
        RowSlices a = op.a();
        if (op.n() == BroadcastRows.L) {
            BroadcastRows.oneVectorRows(op, a.values(), a.columnIndices(), a.rowStarts(), rowStart, rowEnd, nzStart);
        } else if (op.n() == 2 * BroadcastRows.L) {
            BroadcastRows.twoVectorRows(op, a.values(), a.columnIndices(), a.rowStarts(), rowStart, rowEnd, nzStart);
        } else {
            super.wholeRows(op, rowStart, rowEnd, nzStart, ws);
        }
    }

    @Override
    void traceRow(Operands<RowSlices> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        RowSlices a = op.a();
        BroadcastRows.trace(op, new BroadcastRows.Slice(a.values(), a.columnIndices(), 0, from, to, true),
                output(op, r, ws), outputOffset(op, r, ws), ws.scratch(), tracer);
    }
}
