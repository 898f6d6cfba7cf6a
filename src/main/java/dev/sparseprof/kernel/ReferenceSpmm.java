package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;

/**
 * Scalar reference kernels, the oracles of the tests: plain loops with double accumulation, no
 * blocking, no vectors, written for obviousness rather than speed.
 */
public final class ReferenceSpmm {
    private ReferenceSpmm() {}

    /** C = A·B for a dense row-major A ({@code m x k}) and B ({@code k x n}). */
    public static float[] dense(float[] a, int m, int k, float[] b, int n) {
        float[] c = new float[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double sum = 0;
                for (int p = 0; p < k; p++) sum += (double) a[i * k + p] * b[p * n + j];
                c[i * n + j] = (float) sum;
            }
        }
        return c;
    }

    /** C = A·B for a CSR A, entry by entry. */
    public static float[] csr(CsrMatrix a, float[] b, int n) {
        float[] c = new float[a.rows() * n];
        int[] ptr = a.rowPointers();
        int[] cols = a.columnIndices();
        float[] vals = a.values();
        for (int i = 0; i < a.rows(); i++) {
            for (int j = 0; j < n; j++) {
                double sum = 0;
                for (int e = ptr[i]; e < ptr[i + 1]; e++) sum += (double) vals[e] * b[cols[e] * n + j];
                c[i * n + j] = (float) sum;
            }
        }
        return c;
    }
}
