package dev.sparseprof.kernel;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * One CSR row times one column of B, vectorized over the row's entries (an SpMV row): L entries at
 * a time (16 at 512 bits) load their values contiguously, gather {@code b[bOffset + cols[j]]} with
 * the hardware gather ({@code vgatherdps} under AVX-512 and AVX2: the Vector API's
 * {@code fromArray} with an index map) and FMA into one accumulator; the lanes are reduced at the
 * end, and the last {@code length mod L} entries added one by one, a chain of scalar FMAs. (A
 * masked gather for that tail ran 1.1x slower at 512 bits and 2-3x at 256 on the Zen 5 VM, 7 Dec
 * 2026, rows of 19-2048 entries: the Vector API does not lower a gather with a partial mask to
 * one instruction there.)
 *
 * <p>Per row: {@code length / L} times 1 value vector load, 1 column-index vector load, 1 gather
 * of L elements of B and 1 FMA; then 1 lane reduction and {@code length mod L} times 2 scalar
 * loads, 1 scalar load of B and 1 scalar FMA. The CPU time model counts the same
 * ({@code perfmodel.cpu.LoopNests}: csr, coo and N:M at N = 1), at the probe's rates for each part.
 * csr runs it on its rows at N = 1, coo on its row runs, N:M on its decoded slots, csr-gather on
 * each column of its transposed B.
 *
 * <p>Contract: the sum is the row's dot product to fp32 rounding; its order is the platform's
 * ({@code reduceLanes}), so it agrees with a sequential sum to rounding, not bit for bit.
 */
final class GatherRows {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    static final int L = S.length();

    private GatherRows() {}

    /** The sum over {@code j} in {@code [from, to)} of {@code vals[j] * b[bOffset + cols[j]]}. */
    static float dot(float[] vals, int[] cols, int from, int to, float[] b, int bOffset) {
        return dot(vals, from, cols, from, to - from, b, bOffset);
    }

    /**
     * The sum over {@code i} in {@code [0, count)} of {@code vals[valueFrom + i] * b[bOffset + cols[columnFrom + i]]}:
     * values and columns at offsets of their own (N:M's columns are decoded into index scratch from 0).
     */
    static float dot(float[] vals, int valueFrom, int[] cols, int columnFrom, int count, float[] b, int bOffset) {
        int whole = count / L * L;
        FloatVector acc = FloatVector.zero(S);
        int i = 0;
        for (; i < whole; i += L) {
            acc = FloatVector.fromArray(S, b, bOffset, cols, columnFrom + i).fma(FloatVector.fromArray(S, vals, valueFrom + i), acc);
        }
        float sum = acc.reduceLanes(VectorOperators.ADD);
        for (; i < count; i++) sum = Math.fma(b[bOffset + cols[columnFrom + i]], vals[valueFrom + i], sum);
        return sum;
    }
}
