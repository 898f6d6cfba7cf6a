package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * CSR row-split SpMM, broadcast-and-FMA: for each row and each column block of C
 * ({@link ColumnBlocks}), the block's accumulators stay in vector registers across the row's
 * entries; each entry broadcasts its value and FMAs the matching B row segment. B is read
 * contiguously (one row segment per entry) from a 64-byte aligned copy, so every 512-bit load
 * touches one cache line, and the kernel needs no gather instruction.
 *
 * <p>One-vector blocks (N=16, and the tail) would wait on one FMA chain (4 cycles each), so they
 * keep {@link #UNROLL} accumulators, entry {@code from + i} into accumulator {@code i mod 4} (the
 * entries past the last whole group into the first), summed {@code (a0+a1)+(a2+a3)} at the end.
 *
 * <p>The register-blocked bodies for 8, 4, 2 and 1 vectors are written out by hand: the JIT keeps
 * named {@code FloatVector} locals in registers, not the elements of an array of vectors.
 */
public final class CsrSpmm extends CsrRowKernel {
    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long VECTOR_BYTES = (long) L * Float.BYTES;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** Independent accumulators of the one-vector blocks. */
    static final int UNROLL = 4;

    @Override public String name() { return "csr"; }

    /** The traced twin's UNROLL accumulators of one vector each. */
    @Override public int scratchFloats(CsrMatrix a, int n) { return UNROLL * L; }

    @Override public boolean readsAlignedB() { return true; }

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
            int unroll = width <= L ? UNROLL : 1;
            int grouped = unroll == 1 ? 0 : (to - from) / unroll * unroll;
            float[] acc = unroll == 1 ? out : ws.scratch();
            int accAt = unroll == 1 ? o : 0;
            for (int i = 0; i < unroll * width; i++) acc[accAt + i] = 0f;
            for (int j = from; j < to; j++) {
                tracer.readValues(j, 1);
                tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
                float value = vals[j];
                int bRow = cols[j] * n + c0;
                int at = accAt + (j - from < grouped ? (j - from) % unroll : 0) * width;
                for (int v0 = 0; v0 < width; v0 += L) {
                    int lanes = Math.min(L, width - v0);
                    tracer.readFloats(ArrayRole.B_GATHER, bRow + v0, lanes);
                    for (int i = v0; i < v0 + lanes; i++) acc[at + i] = Math.fma(b[bRow + i], value, acc[at + i]);
                }
            }
            if (unroll > 1) {
                for (int i = 0; i < width; i++) {
                    out[o + i] = (acc[i] + acc[width + i]) + (acc[2 * width + i] + acc[3 * width + i]);
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
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j]);
            long p = cols[j] * rowBytes + colBytes;
            a0 = FloatVector.fromMemorySegment(S, b, p, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, b, p + VECTOR_BYTES, ORDER).fma(v, a1);
            a2 = FloatVector.fromMemorySegment(S, b, p + 2 * VECTOR_BYTES, ORDER).fma(v, a2);
            a3 = FloatVector.fromMemorySegment(S, b, p + 3 * VECTOR_BYTES, ORDER).fma(v, a3);
            a4 = FloatVector.fromMemorySegment(S, b, p + 4 * VECTOR_BYTES, ORDER).fma(v, a4);
            a5 = FloatVector.fromMemorySegment(S, b, p + 5 * VECTOR_BYTES, ORDER).fma(v, a5);
            a6 = FloatVector.fromMemorySegment(S, b, p + 6 * VECTOR_BYTES, ORDER).fma(v, a6);
            a7 = FloatVector.fromMemorySegment(S, b, p + 7 * VECTOR_BYTES, ORDER).fma(v, a7);
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
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j]);
            long p = cols[j] * rowBytes + colBytes;
            a0 = FloatVector.fromMemorySegment(S, b, p, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, b, p + VECTOR_BYTES, ORDER).fma(v, a1);
            a2 = FloatVector.fromMemorySegment(S, b, p + 2 * VECTOR_BYTES, ORDER).fma(v, a2);
            a3 = FloatVector.fromMemorySegment(S, b, p + 3 * VECTOR_BYTES, ORDER).fma(v, a3);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
        a2.intoArray(out, o + 2 * L);
        a3.intoArray(out, o + 3 * L);
    }

    private static void block2(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0;
        for (int j = from; j < to; j++) {
            FloatVector v = FloatVector.broadcast(S, vals[j]);
            long p = cols[j] * rowBytes + colBytes;
            a0 = FloatVector.fromMemorySegment(S, b, p, ORDER).fma(v, a0);
            a1 = FloatVector.fromMemorySegment(S, b, p + VECTOR_BYTES, ORDER).fma(v, a1);
        }
        a0.intoArray(out, o);
        a1.intoArray(out, o + L);
    }

    private static void block1(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        MemorySegment b = op.bAligned();
        long rowBytes = (long) op.n() * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        int j = from;
        for (int grouped = from + (to - from) / UNROLL * UNROLL; j < grouped; j += UNROLL) {
            a0 = FloatVector.fromMemorySegment(S, b, cols[j] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j]), a0);
            a1 = FloatVector.fromMemorySegment(S, b, cols[j + 1] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 1]), a1);
            a2 = FloatVector.fromMemorySegment(S, b, cols[j + 2] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 2]), a2);
            a3 = FloatVector.fromMemorySegment(S, b, cols[j + 3] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j + 3]), a3);
        }
        for (; j < to; j++) a0 = FloatVector.fromMemorySegment(S, b, cols[j] * rowBytes + colBytes, ORDER).fma(FloatVector.broadcast(S, vals[j]), a0);
        a0.add(a1).add(a2.add(a3)).intoArray(out, o);
    }

    /**
     * The last {@code n - c0 < L} columns, masked. It reads the heap B: masked loads from a
     * memory segment are not intrinsified (they run 20x slower), masked array loads are.
     */
    private static void blockMasked(Operands<CsrMatrix> op, int from, int to, int c0, float[] out, int o) {
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] b = op.b();
        int n = op.n();
        VectorMask<Float> m = S.indexInRange(0, n - c0);
        FloatVector a0 = FloatVector.zero(S), a1 = a0, a2 = a0, a3 = a0;
        int j = from;
        for (int grouped = from + (to - from) / UNROLL * UNROLL; j < grouped; j += UNROLL) {
            a0 = FloatVector.fromArray(S, b, cols[j] * n + c0, m).fma(FloatVector.broadcast(S, vals[j]), a0);
            a1 = FloatVector.fromArray(S, b, cols[j + 1] * n + c0, m).fma(FloatVector.broadcast(S, vals[j + 1]), a1);
            a2 = FloatVector.fromArray(S, b, cols[j + 2] * n + c0, m).fma(FloatVector.broadcast(S, vals[j + 2]), a2);
            a3 = FloatVector.fromArray(S, b, cols[j + 3] * n + c0, m).fma(FloatVector.broadcast(S, vals[j + 3]), a3);
        }
        for (; j < to; j++) a0 = FloatVector.fromArray(S, b, cols[j] * n + c0, m).fma(FloatVector.broadcast(S, vals[j]), a0);
        a0.add(a1).add(a2.add(a3)).intoArray(out, o, m);
    }
}
