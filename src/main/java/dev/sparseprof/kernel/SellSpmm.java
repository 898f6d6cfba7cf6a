package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.SellMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * SELL-C-sigma SpMM with C = the vector length (16 lanes at 512 bits), vectorized across a chunk's rows, the
 * way the format is meant for (Kreutzer et al., arXiv 1307.6209): B is transposed into scratch;
 * for each chunk, each column c of B and each slot column j, one contiguous load of the 16 rows'
 * values, one {@code vgatherdps} of {@code Bt[c*K + col]} over the 16 column indices, one FMA;
 * the 16 sums are scattered to C through the permutation. Work rows are chunks.
 *
 * <p>Per SIMD vector (C = L lanes, one row per lane): per chunk, per column of B, per slot column:
 * 1 value vector load, 1 column-index vector load, 1 gather of B^T, 1 FMA; per chunk and column
 * of B: L scalar stores through the permutation. Padding slots are multiplied. Per call: B
 * transposed into scratch at an odd line stride ({@link #transposedStride}), except at N = 1,
 * where B's one column is read in place. The name carries C: {@code sell-16-256} at 512 bits, {@code sell-8-256} at 256.
 */
public final class SellSpmm implements SpmmKernel<SellMatrix> {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    /** Chunk height: one row per lane. */
    static final int CHUNK = S.length();
    /** The sort window of the registered kernel ({@link Kernels}). */
    public static final int SIGMA = 256;
    /** The kernel's registry name at this JVM's vector width: {@code sell-16-256} at 512 bits, {@code sell-8-256} at 256. */
    public static final String NAME = "sell-" + CHUNK + "-" + SIGMA;

    private final int sigma;

    public SellSpmm(int sigma) {
        this.sigma = sigma;
    }

    @Override public String name() { return "sell-" + CHUNK + "-" + sigma; }

    @Override public SellMatrix prepare(MatrixView matrix) { return SellMatrix.from(CsrMatrix.from(matrix), CHUNK, sigma); }

    @Override public int rows(SellMatrix a) { return a.rows(); }

    @Override public int cols(SellMatrix a) { return a.cols(); }

    @Override public long storedEntries(SellMatrix a) { return a.values().length; }

    @Override
    public long formatBytes(SellMatrix a) {
        long total = 0;
        for (long bytes : arrayBytes(a).values()) total += bytes;
        return total;
    }

    @Override
    public Map<ArrayRole, Long> arrayBytes(SellMatrix a) {
        long slots = a.values().length;
        return Map.of(ArrayRole.VALUES, slots * Float.BYTES, ArrayRole.COLUMN_INDICES, slots * Integer.BYTES,
                ArrayRole.ROW_POINTERS, a.chunkPointers().length * (long) Integer.BYTES, ArrayRole.METADATA, a.permutation().length * (long) Integer.BYTES);
    }

    /** Work rows are chunks, weighted by their slots. */
    @Override public int[] rowWork(SellMatrix a) { return a.chunkPointers(); }

    @Override public boolean splitsRows() { return false; }

    /** The transposed B (none at N = 1, where B is its own transpose), then one vector of lane sums. */
    @Override
    public int scratchFloats(SellMatrix a, int n) {
        return (n == 1 ? 0 : Math.multiplyExact(transposedStride(a.cols()), n)) + CHUNK;
    }

    /**
     * The distance between two transposed columns of B in scratch: K rounded up to an odd number of
     * 64-byte lines. The transpose stores one element to each of N columns in turn; at a stride of
     * K = 2048 or 4096 floats all of them fell in one L1 set (a 12-way L1 holds 12 of the 16 lines),
     * and each element took 2.2-2.4 ns against 0.55-0.67 at other K (N = 16, Zen 5 VM, 8 Dec 2026);
     * an odd count of lines spreads them over every set.
     */
    static int transposedStride(int k) {
        int lines = (k + 15) / 16;
        return 16 * (lines | 1);
    }

    @Override
    public void runRange(Operands<SellMatrix> op, WorkRange range, Workspace ws) {
        SellMatrix a = op.a();
        int n = op.n();
        int k = a.cols();
        float[] b = op.b();
        float[] scratch = ws.scratch();
        int ldk = n == 1 ? k : transposedStride(k);
        float[] bt = n == 1 ? b : scratch;
        if (n > 1) {
            for (int row = 0; row < k; row++) {
                for (int c = 0; c < n; c++) bt[c * ldk + row] = b[row * n + c];
            }
        }
        int[] ptr = a.chunkPointers();
        int[] cols = a.columnIndices();
        float[] vals = a.values();
        int[] perm = a.permutation();
        float[] out = op.c();
        int sums = scratch.length - CHUNK;
        ws.setCarryRow(-1);
        for (int chunk = range.rowStart(); chunk < range.rowEnd(); chunk++) {
            int p0 = chunk * CHUNK;
            int lanes = Math.min(CHUNK, a.rows() - p0);
            for (int c = 0; c < n; c++) {
                FloatVector acc = FloatVector.zero(S);
                for (int s = ptr[chunk]; s < ptr[chunk + 1]; s += CHUNK) {
                    acc = FloatVector.fromArray(S, bt, c * ldk, cols, s).fma(FloatVector.fromArray(S, vals, s), acc);
                }
                acc.intoArray(scratch, sums);
                for (int i = 0; i < lanes; i++) out[perm[p0 + i] * n + c] = scratch[sums + i];
            }
        }
    }

    @Override
    public void traceRange(Operands<SellMatrix> op, WorkRange range, Workspace ws, Tracer tracer) {
        SellMatrix a = op.a();
        int n = op.n();
        int k = a.cols();
        float[] b = op.b();
        float[] scratch = ws.scratch();
        int ldk = n == 1 ? k : transposedStride(k);
        float[] bt = n == 1 ? b : scratch;
        if (n > 1) {
            for (int row = 0; row < k; row++) {
                tracer.readFloats(ArrayRole.B_GATHER, (long) row * n, n);
                for (int c = 0; c < n; c++) {
                    bt[c * ldk + row] = b[row * n + c];
                    tracer.writeScratch(ArrayRole.B_GATHER, (long) c * ldk + row, 1);
                }
            }
        }
        int[] ptr = a.chunkPointers();
        int[] cols = a.columnIndices();
        float[] vals = a.values();
        int[] perm = a.permutation();
        float[] out = op.c();
        int sums = scratch.length - CHUNK;
        ws.setCarryRow(-1);
        for (int chunk = range.rowStart(); chunk < range.rowEnd(); chunk++) {
            tracer.readPointerPair(chunk);
            int p0 = chunk * CHUNK;
            int lanes = Math.min(CHUNK, a.rows() - p0);
            for (int c = 0; c < n; c++) {
                for (int i = 0; i < CHUNK; i++) scratch[sums + i] = 0f;
                for (int s = ptr[chunk]; s < ptr[chunk + 1]; s += CHUNK) {
                    tracer.readValues(s, CHUNK);
                    tracer.readIndices(ArrayRole.COLUMN_INDICES, s, CHUNK);
                    for (int i = 0; i < CHUNK; i++) {
                        int at = c * ldk + cols[s + i];
                        if (n == 1) tracer.readFloats(ArrayRole.B_GATHER, at, 1);
                        else tracer.readScratch(ArrayRole.B_GATHER, at, 1);
                        scratch[sums + i] = Math.fma(bt[at], vals[s + i], scratch[sums + i]);
                    }
                }
                for (int i = 0; i < lanes; i++) {
                    tracer.readIndices(ArrayRole.METADATA, p0 + i, 1);
                    out[perm[p0 + i] * n + c] = scratch[sums + i];
                    tracer.writeFloats(ArrayRole.C_SCATTER, (long) perm[p0 + i] * n + c, 1);
                }
            }
        }
    }
}
