package dev.sparseprof.kernel;

import org.ejml.data.DMatrixRMaj;
import org.ejml.data.DMatrixSparseCSC;
import org.ejml.ops.DConvertMatrixStruct;
import org.ejml.sparse.csc.CommonOps_DSCC;

/** The second oracle: EJML's own dense-to-CSC conversion and sparse x dense product, in fp64. */
final class EjmlProduct {
    private EjmlProduct() {}

    /** {@code A (m x k, row-major) x B (k x n)} through EJML, rounded to fp32. */
    static float[] of(float[] a, int m, int k, float[] b, int n) {
        DMatrixRMaj denseA = new DMatrixRMaj(m, k);
        for (int i = 0; i < a.length; i++) denseA.data[i] = a[i];
        DMatrixSparseCSC sparseA = DConvertMatrixStruct.convert(denseA, (DMatrixSparseCSC) null, 0.0);
        DMatrixRMaj denseB = new DMatrixRMaj(k, n);
        for (int i = 0; i < b.length; i++) denseB.data[i] = b[i];
        DMatrixRMaj c = CommonOps_DSCC.mult(sparseA, denseB, null);
        float[] out = new float[m * n];
        for (int i = 0; i < out.length; i++) out[i] = (float) c.data[i];
        return out;
    }
}
