package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CscMatrix;
import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;

/**
 * A matrix as EJML holds it for {@link EjmlCscSpmm}: a {@link DMatrixSparseCSC} (fp64 values,
 * sorted row indices per column), and EJML's dense B and C ({@link DMatrixRMaj}, fp64), reshaped
 * per call and reused, so that repeated calls allocate nothing once N stops growing. The dense
 * pair makes it an operand of one thread at a time (the kernel's {@code maxThreads} is 1).
 */
public final class EjmlCsc {
    private final DMatrixSparseCSC matrix;
    private final DMatrixRMaj b;
    private final DMatrixRMaj c;

    private EjmlCsc(DMatrixSparseCSC matrix) {
        this.matrix = matrix;
        this.b = new DMatrixRMaj(matrix.numCols, 1);
        this.c = new DMatrixRMaj(matrix.numRows, 1);
    }

    /** EJML's CSC of the same entries, fp32 values widened to fp64 (exactly). */
    public static EjmlCsc of(CscMatrix a) {
        int nnz = a.nnz();
        DMatrixSparseCSC m = new DMatrixSparseCSC(a.rows(), a.cols(), nnz);
        System.arraycopy(a.columnPointers(), 0, m.col_idx, 0, a.cols() + 1);
        System.arraycopy(a.rowIndices(), 0, m.nz_rows, 0, nnz);
        float[] values = a.values();
        for (int i = 0; i < nnz; i++) m.nz_values[i] = values[i];
        m.nz_length = nnz;
        m.indicesSorted = true;
        return new EjmlCsc(m);
    }

    public DMatrixSparseCSC matrix() { return matrix; }

    /** EJML's dense B, reshaped to {@code cols x n}. */
    DMatrixRMaj b(int n) {
        b.reshape(matrix.numCols, n);
        return b;
    }

    /** EJML's dense C, reshaped to {@code rows x n}. */
    DMatrixRMaj c(int n) {
        c.reshape(matrix.numRows, n);
        return c;
    }
}
