package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CooMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Map;

/**
 * COO SpMM, entry by entry: each (row, column, value) triple adds {@code value * B[column, :]}
 * into {@code C[row, :]} through memory ({@link Axpy}), reading the row index per entry instead of
 * keeping a row in registers. Work rows are the matrix rows (the row-major order of the triples
 * gives each row's entries as a contiguous run), split between threads on whole rows only.
 */
public final class CooSpmm implements SpmmKernel<CooSpmm.Rows> {
    /** The COO matrix and where each row's triples start (the format itself stores no row pointers). */
    public record Rows(CooMatrix matrix, int[] rowStarts) {}

    @Override public String name() { return "coo"; }

    @Override
    public Rows prepare(MatrixView view) {
        CooMatrix m = CooMatrix.from(CsrMatrix.from(view));
        int[] starts = new int[m.rows() + 1];
        for (int r : m.rowIndices()) starts[r + 1]++;
        for (int r = 0; r < m.rows(); r++) starts[r + 1] += starts[r];
        return new Rows(m, starts);
    }

    @Override public int rows(Rows a) { return a.matrix().rows(); }

    @Override public int cols(Rows a) { return a.matrix().cols(); }

    @Override public long storedEntries(Rows a) { return a.matrix().nnz(); }

    @Override public long formatBytes(Rows a) { return a.matrix().nnz() * 12L; }

    @Override
    public Map<ArrayRole, Long> arrayBytes(Rows a) {
        long nnz = a.matrix().nnz();
        // the row indices take the row-pointer slot of the layout: they are what locates the rows
        return Map.of(ArrayRole.ROW_POINTERS, nnz * Integer.BYTES, ArrayRole.COLUMN_INDICES, nnz * Integer.BYTES, ArrayRole.VALUES, nnz * Float.BYTES);
    }

    @Override public int[] rowWork(Rows a) { return a.rowStarts(); }

    @Override public boolean splitsRows() { return false; }

    @Override public int scratchFloats(Rows a, int n) { return 0; }

    @Override public boolean readsAlignedB() { return true; }

    @Override
    public void runRange(Operands<Rows> op, WorkRange range, Workspace ws) {
        CooMatrix a = op.a().matrix();
        int[] rowIdx = a.rowIndices();
        int[] colIdx = a.columnIndices();
        float[] vals = a.values();
        ws.setCarryRow(-1);
        Arrays.fill(op.c(), range.rowStart() * op.n(), range.rowEnd() * op.n(), 0f);
        for (int j = range.nzStart(); j < range.nzEnd(); j++) Axpy.add(op, vals[j], colIdx[j], rowIdx[j]);
    }

    @Override
    public void traceRange(Operands<Rows> op, WorkRange range, Workspace ws, Tracer tracer) {
        CooMatrix a = op.a().matrix();
        int[] rowIdx = a.rowIndices();
        int[] colIdx = a.columnIndices();
        float[] vals = a.values();
        ws.setCarryRow(-1);
        Arrays.fill(op.c(), range.rowStart() * op.n(), range.rowEnd() * op.n(), 0f);
        for (int r = range.rowStart(); r < range.rowEnd(); r++) tracer.writeFloats(ArrayRole.C_SCATTER, (long) r * op.n(), op.n());
        for (int j = range.nzStart(); j < range.nzEnd(); j++) {
            tracer.readIndices(ArrayRole.ROW_POINTERS, j, 1);
            tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
            tracer.readValues(j, 1);
            Axpy.traceAdd(op, vals[j], colIdx[j], rowIdx[j], tracer);
        }
    }
}
