package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * CSR row-split SpMM, broadcast-and-FMA: for each row and each column block of C
 * ({@link ColumnBlocks}), the block's accumulators stay in vector registers across the row's
 * entries; each entry broadcasts its value and FMAs the matching B row segment. B is read
 * contiguously (one row segment per entry), so the kernel needs no gather instruction.
 *
 * <p>The register-blocked bodies for 8, 4, 2 and 1 vectors are written out by hand: the JIT keeps
 * named {@code FloatVector} locals in registers, not the elements of an array of vectors.
 */
public final class CsrSpmm extends CsrRowKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();

    @Override public String name() { return "csr"; }

    @Override public int scratchFloats(CsrMatrix a, int n) { return 0; }

    @Override
    void row(Operands<CsrMatrix> op, int r, int from, int to, Workspace ws) {
        float[] out = output(op, r, ws);
        int outOffset = outputOffset(op, r, ws);
        int n = op.n();
        for (int c0 = 0; c0 < n; ) {
            int v = ColumnBlocks.vectors(n - c0, L);
            switch (v) {
                case 8 -> block8(op, from, to, c0, out, outOffset + c0);
                case 4 -> block4(op, from, to, c0, out, outOffset + c0);
                case 2 -> block2(op, from, to, c0, out, outOffset + c0);
                case 1 -> block1(op, from, to, c0, out, outOffset + c0);
                default -> blockMasked(op, from, to, c0, out, outOffset + c0);
            }
            c0 += ColumnBlocks.width(n - c0, L);
        }
    }

    @Override
    void traceRow(Operands<CsrMatrix> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        float[] out = output(op, r, ws);
        int outOffset = outputOffset(op, r, ws);
        boolean toCarry = out != op.c();
        int n = op.n();
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        for (int c0 = 0; c0 < n; ) {
            int width = ColumnBlocks.width(n - c0, L);
            int o = outOffset + c0;
            for (int i = 0; i < width; i++) out[o + i] = 0f;
            for (int j = from; j < to; j++) {
                tracer.readValues(j, 1);
                tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
                float value = vals[j];
                int bRow = cols[j] * n + c0;
                for (int v0 = 0; v0 < width; v0 += L) {
                    int lanes = Math.min(L, width - v0);
                    tracer.readFloats(ArrayRole.B_GATHER, bRow + v0, lanes);
                    for (int i = v0; i < v0 + lanes; i++) out[o + i] = Math.fma(b[bRow + i], value, out[o + i]);
                }
            }
            for (int v0 = 0; v0 < width; v0 += L) {
                int lanes = Math.min(L, width - v0);
                if (toCarry) tracer.writeCarry(c0 + v0, lanes);
                else tracer.writeFloats(ArrayRole.C_SCATTER, o + v0, lanes);
            }
            c0 += width;
        }
    }

    private static void block8(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        int n = op.n();
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j]);
            int p = cols[j] * n + c0;
            a0 = FloatVector.fromArray(S, b, p).fma(v, a0);
            a1 = FloatVector.fromArray(S, b, p + L).fma(v, a1);
            a2 = FloatVector.fromArray(S, b, p + 2 * L).fma(v, a2);
            a3 = FloatVector.fromArray(S, b, p + 3 * L).fma(v, a3);
            a4 = FloatVector.fromArray(S, b, p + 4 * L).fma(v, a4);
            a5 = FloatVector.fromArray(S, b, p + 5 * L).fma(v, a5);
            a6 = FloatVector.fromArray(S, b, p + 6 * L).fma(v, a6);
            a7 = FloatVector.fromArray(S, b, p + 7 * L).fma(v, a7);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
        a2.intoArray(out, o + 2 * L);
        a3.intoArray(out, o + 3 * L);
        a4.intoArray(out, o + 4 * L);
        a5.intoArray(out, o + 5 * L);
        a6.intoArray(out, o + 6 * L);
        a7.intoArray(out, o + 7 * L);
    }

    private static void block4(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        int n = op.n();
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j]);
            int p = cols[j] * n + c0;
            a0 = FloatVector.fromArray(S, b, p).fma(v, a0);
            a1 = FloatVector.fromArray(S, b, p + L).fma(v, a1);
            a2 = FloatVector.fromArray(S, b, p + 2 * L).fma(v, a2);
            a3 = FloatVector.fromArray(S, b, p + 3 * L).fma(v, a3);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
        a2.intoArray(out, o + 2 * L);
        a3.intoArray(out, o + 3 * L);
    }

    private static void block2(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        int n = op.n();
        FloatVector a0 = FloatVector.zero(S), a1 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j]);
            int p = cols[j] * n + c0;
            a0 = FloatVector.fromArray(S, b, p).fma(v, a0);
            a1 = FloatVector.fromArray(S, b, p + L).fma(v, a1);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
    }

    private static void block1(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        int n = op.n();
        FloatVector a0 = FloatVector.zero(S);
        for (int j = from; j < to; j++) {
            a0 = FloatVector.fromArray(S, b, cols[j] * n + c0).fma(FloatVector.broadcast(S, vals[j]), a0);
        }
        a0.intoArray(out, o);
    }

    /** The last {@code n - c0 < L} columns, with masked loads and store. */
    private static void blockMasked(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        int n = op.n();
        VectorMask<Float> m = S.indexInRange(0, n - c0);
        FloatVector a0 = FloatVector.zero(S);
        for (int j = from; j < to; j++) {
            a0 = FloatVector.fromArray(S, b, cols[j] * n + c0, m).fma(FloatVector.broadcast(S, vals[j]), a0);
        }
        a0.intoArray(out, o, m);
    }
}
