package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The dense kernel at N = 1 (a decode step's one token): a matrix-vector product, vectorized
 * along K, where the GEMM's micro-kernels would pad B to a whole vector of columns and multiply
 * L - 1 zero columns of it. Rows go {@link #ROWS} at a time: per L elements of K one vector load of
 * B (the column) and, per row, one vector load of A's row and one FMA into the row's accumulator;
 * then each accumulator's lanes are reduced and the last {@code K mod L} elements added one by one.
 * Rows past the last whole tile run alone. B is read where it is: nothing is packed.
 *
 * <p>Per SIMD vector (L lanes), for the CPU time model ({@code perfmodel.cpu.LoopNests}: dense at
 * N = 1): per row and L elements of K 1 FMA and 1 load of A, plus 1 load of B per {@link #ROWS}
 * rows; per row 1 lane reduction, {@code K mod L} scalar FMAs and 1 store.
 *
 * <p>Contract: C's rows are A's rows' dot products with B to fp32 rounding; the lanes sum in the
 * platform's order ({@code reduceLanes}), and the traced twin sums them pairwise: the two agree to
 * rounding, not bit for bit.
 */
final class DenseGemv {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    private static final int L = S.length();
    /** Rows per tile: four accumulators in flight, B's vector loaded once for four rows. */
    static final int ROWS = 4;

    private DenseGemv() {}

    /** C's rows {@code [r0, r1)} = A's rows times B's one column. */
    static void run(float[] a, int k, float[] b, float[] c, int r0, int r1) {
        int whole = k / L * L;
        int r = r0;
        for (; r + ROWS <= r1; r += ROWS) {
            int a0 = r * k, a1 = a0 + k, a2 = a1 + k, a3 = a2 + k;
            FloatVector s0 = FloatVector.zero(S), s1 = s0, s2 = s0, s3 = s0;
            for (int j = 0; j < whole; j += L) {
                FloatVector x = FloatVector.fromArray(S, b, j);
                s0 = FloatVector.fromArray(S, a, a0 + j).fma(x, s0);
                s1 = FloatVector.fromArray(S, a, a1 + j).fma(x, s1);
                s2 = FloatVector.fromArray(S, a, a2 + j).fma(x, s2);
                s3 = FloatVector.fromArray(S, a, a3 + j).fma(x, s3);
            }
            c[r] = tail(a, a0, b, whole, k, s0.reduceLanes(VectorOperators.ADD));
            c[r + 1] = tail(a, a1, b, whole, k, s1.reduceLanes(VectorOperators.ADD));
            c[r + 2] = tail(a, a2, b, whole, k, s2.reduceLanes(VectorOperators.ADD));
            c[r + 3] = tail(a, a3, b, whole, k, s3.reduceLanes(VectorOperators.ADD));
        }
        for (; r < r1; r++) {
            int a0 = r * k;
            FloatVector s0 = FloatVector.zero(S);
            for (int j = 0; j < whole; j += L) s0 = FloatVector.fromArray(S, a, a0 + j).fma(FloatVector.fromArray(S, b, j), s0);
            c[r] = tail(a, a0, b, whole, k, s0.reduceLanes(VectorOperators.ADD));
        }
    }

    /** {@code sum} plus A's row (from {@code aRow}) times B over K's elements {@code [from, k)}. */
    private static float tail(float[] a, int aRow, float[] b, int from, int k, float sum) {
        for (int j = from; j < k; j++) sum = Math.fma(a[aRow + j], b[j], sum);
        return sum;
    }

    /** The traced twin of {@link #run}: the same loads in the same order, lanes summed pairwise in {@code lanes}' scratch. */
    static void trace(float[] a, int k, float[] b, float[] c, int r0, int r1, float[] lanes, Tracer tracer) {
        int whole = k / L * L;
        for (int r = r0; r < r1; ) {
            int rows = r + ROWS <= r1 ? ROWS : 1;
            Arrays.fill(lanes, 0, rows * L, 0f);
            for (int j = 0; j < whole; j += L) {
                tracer.readFloats(ArrayRole.B_GATHER, j, L);
                for (int t = 0; t < rows; t++) {
                    int aRow = (r + t) * k;
                    tracer.readFloats(ArrayRole.DENSE_A, aRow + j, L);
                    for (int i = 0; i < L; i++) lanes[t * L + i] = Math.fma(a[aRow + j + i], b[j + i], lanes[t * L + i]);
                }
            }
            for (int t = 0; t < rows; t++) {
                int aRow = (r + t) * k;
                for (int width = L / 2; width >= 1; width /= 2) {
                    for (int i = 0; i < width; i++) lanes[t * L + i] += lanes[t * L + i + width];
                }
                if (k > whole) {
                    tracer.readFloats(ArrayRole.DENSE_A, aRow + whole, k - whole);
                    tracer.readFloats(ArrayRole.B_GATHER, whole, k - whole);
                }
                c[r + t] = tail(a, aRow, b, whole, k, lanes[t * L]);
                tracer.writeFloats(ArrayRole.C_SCATTER, r + t, 1);
            }
            r += rows;
        }
    }
}
