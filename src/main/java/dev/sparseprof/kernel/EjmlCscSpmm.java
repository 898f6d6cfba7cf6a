package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CscMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Map;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.sparse.csc.CommonOps_DSCC;

/**
 * The Java peer: EJML's sparse x dense multiply ({@code CommonOps_DSCC.mult(DMatrixSparseCSC,
 * DMatrixRMaj, DMatrixRMaj)}, EJML 0.46.1), timed like the kernels ({@code measure --formats ejml-csc}).
 * B is widened to EJML's fp64 dense matrix and C narrowed back to fp32 inside each call (the
 * cost of calling EJML from fp32 data: K x N and M x N conversions, a few percent of the multiply).
 *
 * <p>What EJML's loop nest executes ({@code ImplMultiplication_DSCC.multAdd}, after zeroing C):
 * per column k of A, per entry (row i, value v): {@code C[i, :] += v * B[k, :]}, N fp64
 * multiply-adds through memory (a load of C, a load of B, a store of C per element; the JIT
 * vectorizes the scalar loop, without FMA contraction). {@link #traceRange} is that loop nest,
 * written out here with the same fp64 operations in the same order, so it computes the same C bit
 * for bit (a test asserts it): a change of EJML's order shows there first. One thread: any column
 * may write any row of C.
 */
public final class EjmlCscSpmm implements SpmmKernel<EjmlCsc> {
    @Override public String name() { return "ejml-csc"; }

    @Override public EjmlCsc prepare(MatrixView matrix) { return EjmlCsc.of(CscMatrix.from(CsrMatrix.from(matrix))); }

    @Override public int rows(EjmlCsc a) { return a.matrix().numRows; }

    @Override public int cols(EjmlCsc a) { return a.matrix().numCols; }

    @Override public long storedEntries(EjmlCsc a) { return a.matrix().nz_length; }

    @Override public int valueBytes() { return Double.BYTES; }

    @Override
    public long formatBytes(EjmlCsc a) {
        return a.matrix().nz_length * (long) (Double.BYTES + Integer.BYTES) + (a.matrix().numCols + 1L) * Integer.BYTES;
    }

    @Override
    public Map<ArrayRole, Long> arrayBytes(EjmlCsc a) {
        long nnz = a.matrix().nz_length;
        return Map.of(ArrayRole.ROW_POINTERS, (a.matrix().numCols + 1L) * Integer.BYTES, ArrayRole.COLUMN_INDICES, nnz * Integer.BYTES,
                ArrayRole.VALUES, nnz * Double.BYTES);
    }

    /** One work row: the whole matrix. */
    @Override public int[] rowWork(EjmlCsc a) { return new int[] {0, a.matrix().nz_length}; }

    @Override public boolean splitsRows() { return false; }

    @Override public int maxThreads() { return 1; }

    /** The traced twin's addresses of EJML's fp64 B and C (two float slots per double). */
    @Override
    public int scratchFloats(EjmlCsc a, int n) {
        return Math.toIntExact(2L * ((long) a.matrix().numCols + a.matrix().numRows) * n);
    }

    @Override
    public void runRange(Operands<EjmlCsc> op, WorkRange range, Workspace ws) {
        ws.setCarryRow(-1);
        if (range.rowEnd() == range.rowStart()) return;
        int n = op.n();
        DMatrixRMaj b = op.a().b(n);
        DMatrixRMaj c = op.a().c(n);
        float[] bf = op.b();
        double[] bd = b.data;
        for (int i = 0; i < bf.length; i++) bd[i] = bf[i];
        CommonOps_DSCC.mult(op.a().matrix(), b, c);
        float[] cf = op.c();
        double[] cd = c.data;
        for (int i = 0; i < cf.length; i++) cf[i] = (float) cd[i];
    }

    @Override
    public void traceRange(Operands<EjmlCsc> op, WorkRange range, Workspace ws, Tracer tracer) {
        ws.setCarryRow(-1);
        if (range.rowEnd() == range.rowStart()) return;
        int n = op.n();
        DMatrixSparseCSC a = op.a().matrix();
        double[] bd = op.a().b(n).data;
        double[] cd = op.a().c(n).data;
        long cAt = 2L * a.numCols * n;
        float[] bf = op.b();
        for (int k = 0; k < a.numCols; k++) {
            for (int j = 0; j < n; j++) bd[k * n + j] = bf[k * n + j];
            tracer.readFloats(ArrayRole.B_GATHER, (long) k * n, n);
            tracer.writeScratch(ArrayRole.B_GATHER, 2L * k * n, 2 * n);
        }
        Arrays.fill(cd, 0, a.numRows * n, 0.0);
        tracer.writeScratch(ArrayRole.C_SCATTER, cAt, 2 * a.numRows * n);
        for (int k = 0; k < a.numCols; k++) {
            tracer.readPointerPair(k);
            for (int e = a.col_idx[k]; e < a.col_idx[k + 1]; e++) {
                tracer.readIndices(ArrayRole.COLUMN_INDICES, e, 1);
                tracer.readValues(e, 1);
                int i = a.nz_rows[e];
                double v = a.nz_values[e];
                for (int j = 0; j < n; j++) cd[i * n + j] += v * bd[k * n + j];
                tracer.readScratch(ArrayRole.B_GATHER, 2L * k * n, 2 * n);
                tracer.readScratch(ArrayRole.C_SCATTER, cAt + 2L * i * n, 2 * n);
                tracer.writeScratch(ArrayRole.C_SCATTER, cAt + 2L * i * n, 2 * n);
            }
        }
        float[] cf = op.c();
        for (int r = 0; r < a.numRows; r++) {
            for (int j = 0; j < n; j++) cf[r * n + j] = (float) cd[r * n + j];
            tracer.readScratch(ArrayRole.C_SCATTER, cAt + 2L * r * n, 2 * n);
            tracer.writeFloats(ArrayRole.C_SCATTER, (long) r * n, n);
        }
    }
}
