package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The scatter step of the kernels that cannot keep a C row in registers (COO, CSC): one entry
 * {@code v} at (row, column) adds {@code v * B[column, :]} into {@code C[row, :]} through memory,
 * vector by vector (B from the aligned copy, the tail masked from the heap B).
 */
final class Axpy {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    private static final int L = S.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    private Axpy() {}

    static void add(Operands<?> op, float v, int bRow, int cRow) {
        int n = op.n();
        float[] c = op.c();
        MemorySegment b = op.bAligned();
        FloatVector x = FloatVector.broadcast(S, v);
        int bOff = bRow * n;
        int cOff = cRow * n;
        int whole = n / L * L;
        int i = 0;
        for (; i < whole; i += L) {
            FloatVector.fromMemorySegment(S, b, (long) (bOff + i) * Float.BYTES, ORDER).fma(x, FloatVector.fromArray(S, c, cOff + i)).intoArray(c, cOff + i);
        }
        if (i < n) {
            VectorMask<Float> m = S.indexInRange(i, n);
            FloatVector.fromArray(S, op.b(), bOff + i, m).fma(x, FloatVector.fromArray(S, c, cOff + i, m)).intoArray(c, cOff + i, m);
        }
    }

    /** The traced twin of {@link #add}: per vector, a B read, a C read and a C write. */
    static void traceAdd(Operands<?> op, float v, int bRow, int cRow, Tracer tracer) {
        int n = op.n();
        float[] c = op.c();
        float[] b = op.b();
        int bOff = bRow * n;
        int cOff = cRow * n;
        for (int i = 0; i < n; i += L) {
            int lanes = Math.min(L, n - i);
            tracer.readFloats(ArrayRole.B_GATHER, bOff + i, lanes);
            tracer.readFloats(ArrayRole.C_SCATTER, cOff + i, lanes);
            for (int e = i; e < i + lanes; e++) c[cOff + e] = Math.fma(b[bOff + e], v, c[cOff + e]);
            tracer.writeFloats(ArrayRole.C_SCATTER, cOff + i, lanes);
        }
    }
}
