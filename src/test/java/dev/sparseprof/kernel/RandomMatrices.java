package dev.sparseprof.kernel;

import java.util.Random;

/** Random test matrices with the awkward cases: empty rows and one dense row. */
final class RandomMatrices {
    private RandomMatrices() {}

    /** A row-major {@code m x k} matrix with about {@code density} nonzeros, rows 1 and 3 empty, row 2 dense. */
    static float[] sparse(int m, int k, double density, long seed) {
        Random rnd = new Random(seed);
        float[] a = new float[m * k];
        for (int i = 0; i < m; i++) {
            for (int p = 0; p < k; p++) {
                boolean keep = i == 2 || (i != 1 && i != 3 && rnd.nextDouble() < density);
                if (keep) a[i * k + p] = (float) (rnd.nextGaussian());
            }
        }
        return a;
    }

    /** {@code a} with each group of 4 along a row cut to its first 2 non-zeros: a 2:4 matrix. */
    static float[] twoFour(float[] a, int m, int k) {
        return nm(a, m, k, 2, 4);
    }

    /** {@code a} with each group of {@code groupSize} along a row cut to its first {@code kept} non-zeros: an N:M matrix. */
    static float[] nm(float[] a, int m, int k, int kept, int groupSize) {
        float[] out = a.clone();
        for (int i = 0; i < m; i++) {
            for (int g = 0; g < k; g += groupSize) {
                int seen = 0;
                for (int p = g; p < Math.min(k, g + groupSize); p++) {
                    if (out[i * k + p] != 0f && ++seen > kept) out[i * k + p] = 0f;
                }
            }
        }
        return out;
    }

    static float[] dense(int rows, int cols, long seed) {
        Random rnd = new Random(seed);
        float[] b = new float[rows * cols];
        for (int i = 0; i < b.length; i++) b[i] = (float) rnd.nextGaussian();
        return b;
    }
}
