package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.EllMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;

/**
 * The row-split skeleton shared by the CSR-like kernels ({@link RowSlices}: CSR, ELL): walks a
 * {@link WorkRange} row by row, hands each row's entries to {@link #row} (fast) or
 * {@link #traceRow} (traced), and carries a partial last row out. Subclasses differ only in how
 * one row is computed; the format is a constructor argument.
 */
abstract class CsrRowKernel implements SpmmKernel<RowSlices> {
    /** The row-slice formats by name. */
    enum SliceFormat { CSR, ELL }

    private final SliceFormat format;

    CsrRowKernel(SliceFormat format) {
        this.format = format;
    }

    SliceFormat sliceFormat() { return format; }

    @Override
    public RowSlices prepare(MatrixView matrix) {
        CsrMatrix csr = CsrMatrix.from(matrix);
        return format == SliceFormat.CSR ? RowSlices.of(csr) : RowSlices.of(EllMatrix.from(csr));
    }

    @Override public int rows(RowSlices a) { return a.rows(); }

    @Override public int cols(RowSlices a) { return a.cols(); }

    @Override public long storedEntries(RowSlices a) { return a.slots(); }

    @Override
    public long formatBytes(RowSlices a) {
        long total = 0;
        for (long bytes : a.arrayBytes().values()) total += bytes;
        return total;
    }

    @Override public int[] rowWork(RowSlices a) { return a.rowStarts(); }

    @Override public Map<ArrayRole, Long> arrayBytes(RowSlices a) { return a.arrayBytes(); }

    @Override public boolean splitsRows() { return true; }

    /** Called once per range before its rows, e.g. to transpose B into scratch. */
    void beginRange(Operands<RowSlices> op, Workspace ws) {}

    void traceBeginRange(Operands<RowSlices> op, Workspace ws, Tracer tracer) {}

    /**
     * Computes row {@code r}'s entries {@code [from, to)} times B into C's row r, or into
     * {@link Workspace#carry()} when {@code r} is the workspace's carry row.
     */
    abstract void row(Operands<RowSlices> op, int r, int from, int to, Workspace ws);

    /** The traced twin of {@link #row}. */
    abstract void traceRow(Operands<RowSlices> op, int r, int from, int to, Workspace ws, Tracer tracer);

    /** Row r's output array: the carry row or C. */
    static float[] output(Operands<RowSlices> op, int r, Workspace ws) {
        return r == ws.carryRow() ? ws.carry() : op.c();
    }

    /** Offset of row r in {@link #output}. */
    static int outputOffset(Operands<RowSlices> op, int r, Workspace ws) {
        return r == ws.carryRow() ? 0 : r * op.n();
    }

    @Override
    public final void runRange(Operands<RowSlices> op, WorkRange range, Workspace ws) {
        int[] ptr = op.a().rowStarts();
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
    public final void traceRange(Operands<RowSlices> op, WorkRange range, Workspace ws, Tracer tracer) {
        int[] ptr = op.a().rowStarts();
        ws.setCarryRow(-1);
        traceBeginRange(op, ws, tracer);
        for (int r = range.rowStart(); r < range.rowEnd(); r++) {
            if (op.a().rowPointersStored()) {
                tracer.readIndices(ArrayRole.ROW_POINTERS, r, 1);
                tracer.readIndices(ArrayRole.ROW_POINTERS, r + 1, 1);
            }
            traceRow(op, r, Math.max(ptr[r], range.nzStart()), ptr[r + 1], ws, tracer);
        }
        int last = range.rowEnd();
        if (last < op.a().rows()) {
            if (op.a().rowPointersStored()) tracer.readIndices(ArrayRole.ROW_POINTERS, last, 1);
            int from = Math.max(ptr[last], range.nzStart());
            if (range.nzEnd() > from) {
                ws.setCarryRow(last);
                traceRow(op, last, from, range.nzEnd(), ws, tracer);
            }
        }
    }
}
