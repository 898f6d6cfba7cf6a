package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;

/**
 * The row-split skeleton shared by the CSR kernels: walks a {@link WorkRange} row by row, hands
 * each row's entries to {@link #row} (fast) or {@link #traceRow} (traced), and carries a partial
 * last row out. Subclasses differ only in how one row is computed.
 */
abstract class CsrRowKernel implements SpmmKernel<CsrMatrix> {
    @Override public CsrMatrix prepare(MatrixView matrix) { return CsrMatrix.from(matrix); }

    @Override public int rows(CsrMatrix a) { return a.rows(); }

    @Override public int cols(CsrMatrix a) { return a.cols(); }

    @Override public long storedEntries(CsrMatrix a) { return a.nnz(); }

    @Override public long formatBytes(CsrMatrix a) { return (a.rows() + 1L) * Integer.BYTES + a.nnz() * (long) (Integer.BYTES + Float.BYTES); }

    @Override public int[] rowWork(CsrMatrix a) { return a.rowPointers(); }

    @Override public boolean splitsRows() { return true; }

    /** Called once per range before its rows, e.g. to transpose B into scratch. */
    void beginRange(Operands<CsrMatrix> op, Workspace ws) {}

    void traceBeginRange(Operands<CsrMatrix> op, Workspace ws, Tracer tracer) {}

    /**
     * Computes row {@code r}'s entries {@code [from, to)} times B into C's row r, or into
     * {@link Workspace#carry()} when {@code r} is the workspace's carry row.
     */
    abstract void row(Operands<CsrMatrix> op, int r, int from, int to, Workspace ws);

    /** The traced twin of {@link #row}. */
    abstract void traceRow(Operands<CsrMatrix> op, int r, int from, int to, Workspace ws, Tracer tracer);

    /** Row r's output array: the carry row or C. */
    static float[] output(Operands<CsrMatrix> op, int r, Workspace ws) {
        return r == ws.carryRow() ? ws.carry() : op.c();
    }

    /** Offset of row r in {@link #output}. */
    static int outputOffset(Operands<CsrMatrix> op, int r, Workspace ws) {
        return r == ws.carryRow() ? 0 : r * op.n();
    }

    @Override
    public final void runRange(Operands<CsrMatrix> op, WorkRange range, Workspace ws) {
        int[] ptr = op.a().rowPointers();
        ws.setCarryRow(-1);
        beginRange(op, ws);
        for (int r = range.rowStart(); r < range.rowEnd(); r++) {
            row(op, r, Math.max(ptr[r], range.nzStart()), ptr[r + 1], ws);
        }
        int last = range.rowEnd();
        if (last < op.a().rows()) {
            int from = Math.max(ptr[last], range.nzStart());
            if (range.nzEnd() > from) {
                ws.setCarryRow(last);
                row(op, last, from, range.nzEnd(), ws);
            }
        }
    }

    @Override
    public final void traceRange(Operands<CsrMatrix> op, WorkRange range, Workspace ws, Tracer tracer) {
        int[] ptr = op.a().rowPointers();
        ws.setCarryRow(-1);
        traceBeginRange(op, ws, tracer);
        for (int r = range.rowStart(); r < range.rowEnd(); r++) {
            tracer.readIndices(ArrayRole.ROW_POINTERS, r, 1);
            tracer.readIndices(ArrayRole.ROW_POINTERS, r + 1, 1);
            traceRow(op, r, Math.max(ptr[r], range.nzStart()), ptr[r + 1], ws, tracer);
        }
        int last = range.rowEnd();
        if (last < op.a().rows()) {
            tracer.readIndices(ArrayRole.ROW_POINTERS, last, 1);
            int from = Math.max(ptr[last], range.nzStart());
            if (range.nzEnd() > from) {
                ws.setCarryRow(last);
                traceRow(op, last, from, range.nzEnd(), ws, tracer);
            }
        }
    }
}
