package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;

/**
 * The row-split skeleton shared by the row-wise kernels (CSR, ELL, N:M, bitmask): walks a
 * {@link WorkRange} row by row, hands each row's entries {@code [from, to)} (indices into the
 * format's per-row work prefix) to {@link #row} (fast) or {@link #traceRow} (traced), and carries a
 * partial last row out. Subclasses say how one row is computed.
 */
abstract class RowSplitKernel<A> implements SpmmKernel<A> {
    @Override public boolean splitsRows() { return true; }

    /** Whether the format stores row pointers the kernel reads (else it computes row starts). */
    abstract boolean rowPointersStored(A a);

    /** Called once per range before its rows, e.g. to transpose B into scratch. */
    void beginRange(Operands<A> op, Workspace ws) {}

    void traceBeginRange(Operands<A> op, Workspace ws, Tracer tracer) {}

    /**
     * Computes row {@code r}'s entries {@code [from, to)} times B into C's row r, or into
     * {@link Workspace#carry()} when {@code r} is the workspace's carry row.
     */
    abstract void row(Operands<A> op, int r, int from, int to, Workspace ws);

    /**
     * Computes the whole rows {@code [rowStart, rowEnd)} (none is the carry row): by default
     * {@link #row} for each; a kernel may override it with a tighter loop of the same order.
     */
    void wholeRows(Operands<A> op, int rowStart, int rowEnd, int nzStart, Workspace ws) {
        int[] ptr = rowWork(op.a());
        for (int r = rowStart; r < rowEnd; r++) row(op, r, Math.max(ptr[r], nzStart), ptr[r + 1], ws);
    }

    /**
     * The traced twin of {@link #wholeRows}: by default each row's two row pointers (when stored)
     * and {@link #traceRow}; a kernel that overrides {@link #wholeRows} with another loop order
     * overrides this with the same order.
     */
    void traceWholeRows(Operands<A> op, int rowStart, int rowEnd, int nzStart, Workspace ws, Tracer tracer) {
        int[] ptr = rowWork(op.a());
        boolean pointers = rowPointersStored(op.a());
        for (int r = rowStart; r < rowEnd; r++) {
            if (pointers) {
                tracer.readPointerPair(r);
            }
            traceRow(op, r, Math.max(ptr[r], nzStart), ptr[r + 1], ws, tracer);
        }
    }

    /** The traced twin of {@link #row}. */
    abstract void traceRow(Operands<A> op, int r, int from, int to, Workspace ws, Tracer tracer);

    /** Row r's output array: the carry row or C. */
    static float[] output(Operands<?> op, int r, Workspace ws) {
        return r == ws.carryRow() ? ws.carry() : op.c();
    }

    /** Offset of row r in {@link #output}. */
    static int outputOffset(Operands<?> op, int r, Workspace ws) {
        return r == ws.carryRow() ? 0 : r * op.n();
    }

    @Override
    public final void runRange(Operands<A> op, WorkRange range, Workspace ws) {
        int[] ptr = rowWork(op.a());
        ws.setCarryRow(-1);
        beginRange(op, ws);
        wholeRows(op, range.rowStart(), range.rowEnd(), range.nzStart(), ws);
        int last = range.rowEnd();
        if (last < rows(op.a())) {
            int from = Math.max(ptr[last], range.nzStart());
            if (range.nzEnd() > from) {
                ws.setCarryRow(last);
                row(op, last, from, range.nzEnd(), ws);
            }
        }
    }

    @Override
    public final void traceRange(Operands<A> op, WorkRange range, Workspace ws, Tracer tracer) {
        int[] ptr = rowWork(op.a());
        boolean pointers = rowPointersStored(op.a());
        ws.setCarryRow(-1);
        traceBeginRange(op, ws, tracer);
        traceWholeRows(op, range.rowStart(), range.rowEnd(), range.nzStart(), ws, tracer);
        int last = range.rowEnd();
        if (last < rows(op.a())) {
            if (pointers) tracer.readIndices(ArrayRole.ROW_POINTERS, last, 1);
            int from = Math.max(ptr[last], range.nzStart());
            if (range.nzEnd() > from) {
                ws.setCarryRow(last);
                traceRow(op, last, from, range.nzEnd(), ws, tracer);
            }
        }
    }
}
