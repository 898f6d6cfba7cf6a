package dev.sparseprof.kernel;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The register tile of the BSR kernel: {@link #ROWS} rows of one block row of C times one column
 * strip of N, held in vector registers across all the blocks of the block row. Per block and per
 * block column {@code j} the tile loads the strip of B row {@code k0 + j} once (1, 2 or 4 vectors) and
 * FMAs it with the broadcast value of each of its rows: on 32 registers 4 vectors x 4 rows = 16
 * accumulators, 8 loads (4 of B, 4 broadcasts) per 16 FMAs, the dense micro-kernel's ratio; on 16
 * registers (AVX2) 2 vectors x 4 rows. Strips: as many of
 * {@link #WIDE_VECTORS} vectors as fit, then single vectors, then a masked tail read from the heap
 * B (masked loads from a memory segment are not intrinsified; masked array loads are). The
 * one-vector bodies take 4 block columns per trip: the block width is no JIT constant, and the
 * loop overhead of a 4-trip loop cost a third of the time at N = 16.
 *
 * <p>A tile covers {@code g <= 4} real rows (a block of R = 2 rows, the matrix's last block row):
 * the missing rows re-read the last real row's values and their sums are dropped, so the loop
 * nest has no row branches (R = 2 pays twice the FMAs). R = 8 runs two tiles per block row.
 * The register bodies are written out by hand: the JIT keeps named {@code FloatVector} locals in
 * registers, not array elements.
 *
 * <p>What the loops execute (for the CPU time model), per block and block column: wide strip of
 * {@link #WIDE_VECTORS} vectors: WIDE_VECTORS aligned B loads, 4 value loads + broadcasts,
 * 4 x WIDE_VECTORS FMAs; one-vector strip: 1 B load, 4 broadcasts, 4 FMAs (4 block columns per
 * trip); per tile and strip: g x (strip vectors) C stores. Per block: 1 block-column index load.
 * Padding entries of a block are multiplied like the others.
 */
final class BlockRowTiles {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    static final int L = S.length();
    private static final long VECTOR_BYTES = (long) L * Float.BYTES;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    /** C rows per tile. */
    static final int ROWS = 4;
    /**
     * Vectors of a wide strip: 4 where the ISA has 32 vector registers (16 accumulators + 4 B + 1
     * broadcast), 2 where it has 16 (AVX2: 8 + 2 + 1; a 4-vector strip there spills).
     */
    static final int WIDE_VECTORS = KernelVectors.registers(S.vectorBitSize()) >= 32 ? 4 : 2;
    /** Floats of scratch the traced twin needs for a tile's sums. */
    static final int TRACE_SCRATCH_FLOATS = ROWS * WIDE_VECTORS * L;

    private BlockRowTiles() {}

    /** Whole vectors in the next strip for {@code remaining} columns: 4, 1, or 0 for a masked tail. */
    static int stripVectors(int remaining) {
        return remaining >= WIDE_VECTORS * L ? WIDE_VECTORS : remaining >= L ? 1 : 0;
    }

    /** Columns the next strip covers. */
    static int stripWidth(int remaining) {
        int v = stripVectors(remaining);
        return v == 0 ? remaining : v * L;
    }

    /**
     * One tile: blocks {@code [blkFrom, blkTo)} of a block row, block rows {@code i0 .. i0+g-1}
     * (C rows {@code cRow ..}), over all of N strip by strip.
     */
    static void compute(Operands<BsrMatrix> op, int blkFrom, int blkTo, int i0, int g, int cRow) {
        int n = op.n();
        for (int c0 = 0; c0 < n; c0 += stripWidth(n - c0)) {
            int vectors = stripVectors(n - c0);
            if (vectors == WIDE_VECTORS) {
                if (WIDE_VECTORS == 4) wide(op, blkFrom, blkTo, i0, g, cRow, c0);
                else wide2(op, blkFrom, blkTo, i0, g, cRow, c0);
            } else {
                narrow(op, blkFrom, blkTo, i0, g, cRow, c0, vectors == 0);
            }
        }
    }

    /** Offset of tile row {@code i} inside a block: rows past the {@code g} real ones repeat the last. */
    private static int rowOffset(int i0, int i, int g, int blockCols) {
        return (i0 + Math.min(i, g - 1)) * blockCols;
    }

    private static void wide(Operands<BsrMatrix> op, int blkFrom, int blkTo, int i0, int g, int cRow, int c0) {
        BsrMatrix a = op.a();
        int cb = a.shape().cols();
        int rc = a.shape().rows() * cb;
        int cols = a.cols();
        int[] bcols = a.blockColumnIndices();
        float[] vals = a.values();
        MemorySegment b = op.bAligned();
        int n = op.n();
        long rowBytes = (long) n * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        int o0 = rowOffset(i0, 0, g, cb), o1 = rowOffset(i0, 1, g, cb), o2 = rowOffset(i0, 2, g, cb), o3 = rowOffset(i0, 3, g, cb);
        FloatVector c00 = FloatVector.zero(S), c01 = c00, c02 = c00, c03 = c00, c10 = c00, c11 = c00, c12 = c00, c13 = c00;
        FloatVector c20 = c00, c21 = c00, c22 = c00, c23 = c00, c30 = c00, c31 = c00, c32 = c00, c33 = c00;
        for (int blk = blkFrom; blk < blkTo; blk++) {
            int k0 = bcols[blk] * cb;
            int width = Math.min(cb, cols - k0);
            int v = blk * rc;
            for (int j = 0; j < width; j++) {
                long p = (k0 + j) * rowBytes + colBytes;
                FloatVector b0 = FloatVector.fromMemorySegment(S, b, p, ORDER);
                FloatVector b1 = FloatVector.fromMemorySegment(S, b, p + VECTOR_BYTES, ORDER);
                FloatVector b2 = FloatVector.fromMemorySegment(S, b, p + 2 * VECTOR_BYTES, ORDER);
                FloatVector b3 = FloatVector.fromMemorySegment(S, b, p + 3 * VECTOR_BYTES, ORDER);
                FloatVector x = FloatVector.broadcast(S, vals[v + o0 + j]);
                c00 = b0.fma(x, c00); c01 = b1.fma(x, c01); c02 = b2.fma(x, c02); c03 = b3.fma(x, c03);
                x = FloatVector.broadcast(S, vals[v + o1 + j]);
                c10 = b0.fma(x, c10); c11 = b1.fma(x, c11); c12 = b2.fma(x, c12); c13 = b3.fma(x, c13);
                x = FloatVector.broadcast(S, vals[v + o2 + j]);
                c20 = b0.fma(x, c20); c21 = b1.fma(x, c21); c22 = b2.fma(x, c22); c23 = b3.fma(x, c23);
                x = FloatVector.broadcast(S, vals[v + o3 + j]);
                c30 = b0.fma(x, c30); c31 = b1.fma(x, c31); c32 = b2.fma(x, c32); c33 = b3.fma(x, c33);
            }
        }
        float[] c = op.c();
        int o = cRow * n + c0;
        c00.intoArray(c, o); c01.intoArray(c, o + L); c02.intoArray(c, o + 2 * L); c03.intoArray(c, o + 3 * L);
        if (g > 1) { o += n; c10.intoArray(c, o); c11.intoArray(c, o + L); c12.intoArray(c, o + 2 * L); c13.intoArray(c, o + 3 * L); }
        if (g > 2) { o += n; c20.intoArray(c, o); c21.intoArray(c, o + L); c22.intoArray(c, o + 2 * L); c23.intoArray(c, o + 3 * L); }
        if (g > 3) { o += n; c30.intoArray(c, o); c31.intoArray(c, o + L); c32.intoArray(c, o + 2 * L); c33.intoArray(c, o + 3 * L); }
    }

    /** The 16-register wide strip: 4 rows x 2 vectors, 6 loads (2 of B, 4 broadcasts) per 8 FMAs. */
    private static void wide2(Operands<BsrMatrix> op, int blkFrom, int blkTo, int i0, int g, int cRow, int c0) {
        BsrMatrix a = op.a();
        int cb = a.shape().cols();
        int rc = a.shape().rows() * cb;
        int cols = a.cols();
        int[] bcols = a.blockColumnIndices();
        float[] vals = a.values();
        MemorySegment b = op.bAligned();
        int n = op.n();
        long rowBytes = (long) n * Float.BYTES;
        long colBytes = (long) c0 * Float.BYTES;
        int o0 = rowOffset(i0, 0, g, cb), o1 = rowOffset(i0, 1, g, cb), o2 = rowOffset(i0, 2, g, cb), o3 = rowOffset(i0, 3, g, cb);
        FloatVector c00 = FloatVector.zero(S), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
        for (int blk = blkFrom; blk < blkTo; blk++) {
            int k0 = bcols[blk] * cb;
            int width = Math.min(cb, cols - k0);
            int v = blk * rc;
            for (int j = 0; j < width; j++) {
                long p = (k0 + j) * rowBytes + colBytes;
                FloatVector b0 = FloatVector.fromMemorySegment(S, b, p, ORDER);
                FloatVector b1 = FloatVector.fromMemorySegment(S, b, p + VECTOR_BYTES, ORDER);
                FloatVector x = FloatVector.broadcast(S, vals[v + o0 + j]);
                c00 = b0.fma(x, c00); c01 = b1.fma(x, c01);
                x = FloatVector.broadcast(S, vals[v + o1 + j]);
                c10 = b0.fma(x, c10); c11 = b1.fma(x, c11);
                x = FloatVector.broadcast(S, vals[v + o2 + j]);
                c20 = b0.fma(x, c20); c21 = b1.fma(x, c21);
                x = FloatVector.broadcast(S, vals[v + o3 + j]);
                c30 = b0.fma(x, c30); c31 = b1.fma(x, c31);
            }
        }
        float[] c = op.c();
        int o = cRow * n + c0;
        c00.intoArray(c, o); c01.intoArray(c, o + L);
        if (g > 1) { o += n; c10.intoArray(c, o); c11.intoArray(c, o + L); }
        if (g > 2) { o += n; c20.intoArray(c, o); c21.intoArray(c, o + L); }
        if (g > 3) { o += n; c30.intoArray(c, o); c31.intoArray(c, o + L); }
    }

    /**
     * A one-vector strip: whole ({@code masked} false: B from the aligned copy) or the masked tail
     * of fewer than {@link #L} columns (B from the heap array, whose masked loads are intrinsified).
     */
    private static void narrow(Operands<BsrMatrix> op, int blkFrom, int blkTo, int i0, int g, int cRow, int c0, boolean masked) {
        BsrMatrix a = op.a();
        int cb = a.shape().cols();
        int rc = a.shape().rows() * cb;
        int cols = a.cols();
        int[] bcols = a.blockColumnIndices();
        float[] vals = a.values();
        MemorySegment bAligned = op.bAligned();
        float[] b = op.b();
        int n = op.n();
        VectorMask<Float> m = S.indexInRange(0, Math.min(L, n - c0));
        int o0 = rowOffset(i0, 0, g, cb), o1 = rowOffset(i0, 1, g, cb), o2 = rowOffset(i0, 2, g, cb), o3 = rowOffset(i0, 3, g, cb);
        FloatVector c0v = FloatVector.zero(S), c1v = c0v, c2v = c0v, c3v = c0v;
        for (int blk = blkFrom; blk < blkTo; blk++) {
            int k0 = bcols[blk] * cb;
            int width = Math.min(cb, cols - k0);
            int v = blk * rc;
            int j = 0;
            for (; j + 4 <= width; j += 4) { // 4 block columns per trip: the block width is no JIT constant
                int at = (k0 + j) * n + c0;
                FloatVector p0 = load(bAligned, b, at, m, masked), p1 = load(bAligned, b, at + n, m, masked);
                FloatVector p2 = load(bAligned, b, at + 2 * n, m, masked), p3 = load(bAligned, b, at + 3 * n, m, masked);
                int q = v + j;
                c0v = p3.fma(FloatVector.broadcast(S, vals[q + o0 + 3]), p2.fma(FloatVector.broadcast(S, vals[q + o0 + 2]),
                        p1.fma(FloatVector.broadcast(S, vals[q + o0 + 1]), p0.fma(FloatVector.broadcast(S, vals[q + o0]), c0v))));
                c1v = p3.fma(FloatVector.broadcast(S, vals[q + o1 + 3]), p2.fma(FloatVector.broadcast(S, vals[q + o1 + 2]),
                        p1.fma(FloatVector.broadcast(S, vals[q + o1 + 1]), p0.fma(FloatVector.broadcast(S, vals[q + o1]), c1v))));
                c2v = p3.fma(FloatVector.broadcast(S, vals[q + o2 + 3]), p2.fma(FloatVector.broadcast(S, vals[q + o2 + 2]),
                        p1.fma(FloatVector.broadcast(S, vals[q + o2 + 1]), p0.fma(FloatVector.broadcast(S, vals[q + o2]), c2v))));
                c3v = p3.fma(FloatVector.broadcast(S, vals[q + o3 + 3]), p2.fma(FloatVector.broadcast(S, vals[q + o3 + 2]),
                        p1.fma(FloatVector.broadcast(S, vals[q + o3 + 1]), p0.fma(FloatVector.broadcast(S, vals[q + o3]), c3v))));
            }
            for (; j < width; j++) {
                int at = (k0 + j) * n + c0;
                FloatVector bv = masked ? FloatVector.fromArray(S, b, at, m) : FloatVector.fromMemorySegment(S, bAligned, at * (long) Float.BYTES, ORDER);
                c0v = bv.fma(FloatVector.broadcast(S, vals[v + o0 + j]), c0v);
                c1v = bv.fma(FloatVector.broadcast(S, vals[v + o1 + j]), c1v);
                c2v = bv.fma(FloatVector.broadcast(S, vals[v + o2 + j]), c2v);
                c3v = bv.fma(FloatVector.broadcast(S, vals[v + o3 + j]), c3v);
            }
        }
        float[] c = op.c();
        int o = cRow * n + c0;
        store(c0v, c, o, m, masked);
        if (g > 1) store(c1v, c, o + n, m, masked);
        if (g > 2) store(c2v, c, o + 2 * n, m, masked);
        if (g > 3) store(c3v, c, o + 3 * n, m, masked);
    }

    private static FloatVector load(MemorySegment bAligned, float[] b, int at, VectorMask<Float> m, boolean masked) {
        return masked ? FloatVector.fromArray(S, b, at, m) : FloatVector.fromMemorySegment(S, bAligned, at * (long) Float.BYTES, ORDER);
    }

    private static void store(FloatVector v, float[] c, int at, VectorMask<Float> m, boolean masked) {
        if (masked) v.intoArray(c, at, m);
        else v.intoArray(c, at);
    }

    /** The traced twin of {@link #compute}; {@code acc} holds {@link #TRACE_SCRATCH_FLOATS} floats. */
    static void trace(Operands<BsrMatrix> op, int blkFrom, int blkTo, int i0, int g, int cRow, float[] acc, Tracer tracer) {
        BsrMatrix a = op.a();
        int cb = a.shape().cols();
        int rc = a.shape().rows() * cb;
        int cols = a.cols();
        int[] bcols = a.blockColumnIndices();
        float[] vals = a.values();
        float[] b = op.b();
        float[] c = op.c();
        int n = op.n();
        for (int c0 = 0; c0 < n; ) {
            int width = stripWidth(n - c0);
            for (int i = 0; i < ROWS * width; i++) acc[i] = 0f;
            for (int blk = blkFrom; blk < blkTo; blk++) {
                tracer.readIndices(ArrayRole.COLUMN_INDICES, blk, 1);
                int k0 = bcols[blk] * cb;
                int blockWidth = Math.min(cb, cols - k0);
                for (int j = 0; j < blockWidth; j++) {
                    int bRow = (k0 + j) * n + c0;
                    for (int v0 = 0; v0 < width; v0 += L) tracer.readFloats(ArrayRole.B_GATHER, bRow + v0, Math.min(L, width - v0));
                    for (int i = 0; i < ROWS; i++) {
                        int vi = blk * rc + rowOffset(i0, i, g, cb) + j;
                        tracer.readValues(vi, 1);
                        float value = vals[vi];
                        for (int e = 0; e < width; e++) acc[i * width + e] = Math.fma(b[bRow + e], value, acc[i * width + e]);
                    }
                }
            }
            for (int i = 0; i < g; i++) {
                int o = (cRow + i) * n + c0;
                System.arraycopy(acc, i * width, c, o, width);
                for (int v0 = 0; v0 < width; v0 += L) tracer.writeFloats(ArrayRole.C_SCATTER, o + v0, Math.min(L, width - v0));
            }
            c0 += width;
        }
    }
}
