package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CscMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Map;

/**
 * CSC SpMM, column-scatter: for each column k of A, B's row k is read once and each entry
 * (row, value) of the column adds {@code value * B[k, :]} into {@code C[row, :]} ({@link Axpy}).
 * Any column may write any row of C, so the kernel runs on one thread ({@link #maxThreads()}).
 *
 * <p>Per SIMD vector (L lanes): per column 2 pointer loads; per entry 1 row-index and 1 value load,
 * then per vector of N 1 B load, 1 C load, 1 FMA, 1 C store ({@link Axpy}); C is zeroed first.
 */
public final class CscSpmm implements SpmmKernel<CscMatrix> {
    @Override public String name() { return "csc"; }

    @Override public CscMatrix prepare(MatrixView matrix) { return CscMatrix.from(CsrMatrix.from(matrix)); }

    @Override public int rows(CscMatrix a) { return a.rows(); }

    @Override public int cols(CscMatrix a) { return a.cols(); }

    @Override public long storedEntries(CscMatrix a) { return a.nnz(); }

    @Override public long formatBytes(CscMatrix a) { return a.nnz() * 8L + (a.cols() + 1L) * Integer.BYTES; }

    @Override
    public Map<ArrayRole, Long> arrayBytes(CscMatrix a) {
        return Map.of(ArrayRole.ROW_POINTERS, (a.cols() + 1L) * Integer.BYTES, ArrayRole.COLUMN_INDICES, a.nnz() * (long) Integer.BYTES,
                ArrayRole.VALUES, a.nnz() * (long) Float.BYTES);
    }

    /** One work row: the whole matrix. */
    @Override public int[] rowWork(CscMatrix a) { return new int[] {0, a.nnz()}; }

    @Override public boolean splitsRows() { return false; }

    @Override public int maxThreads() { return 1; }

    @Override public int scratchFloats(CscMatrix a, int n) { return 0; }

    @Override public boolean readsAlignedB(int n) { return true; }

    @Override
    public void runRange(Operands<CscMatrix> op, WorkRange range, Workspace ws) {
        ws.setCarryRow(-1);
        if (range.rowEnd() == range.rowStart()) return;
        CscMatrix a = op.a();
        int[] ptr = a.columnPointers();
        int[] rows = a.rowIndices();
        float[] vals = a.values();
        Arrays.fill(op.c(), 0f);
        for (int k = 0; k < a.cols(); k++) {
            for (int j = ptr[k]; j < ptr[k + 1]; j++) Axpy.add(op, vals[j], k, rows[j]);
        }
    }

    @Override
    public void traceRange(Operands<CscMatrix> op, WorkRange range, Workspace ws, Tracer tracer) {
        ws.setCarryRow(-1);
        if (range.rowEnd() == range.rowStart()) return;
        CscMatrix a = op.a();
        int[] ptr = a.columnPointers();
        int[] rows = a.rowIndices();
        float[] vals = a.values();
        Arrays.fill(op.c(), 0f);
        tracer.writeFloats(ArrayRole.C_SCATTER, 0, op.c().length);
        for (int k = 0; k < a.cols(); k++) {
            tracer.readPointerPair(k);
            for (int j = ptr[k]; j < ptr[k + 1]; j++) {
                tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
                tracer.readValues(j, 1);
                Axpy.traceAdd(op, vals[j], k, rows[j], tracer);
            }
        }
    }
}
