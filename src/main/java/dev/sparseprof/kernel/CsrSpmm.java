package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * CSR (or ELL) row-split SpMM, broadcast-and-FMA ({@link BroadcastRows}): the deployable CPU
 * kernel; column indices are read from the stored array. At N = 1 (a decode step's one token) each
 * row is one gather dot over B itself instead ({@link GatherRows}): the broadcast body spends a
 * masked one-lane load and FMA on each entry there. MiniLM layer.0 at 90 %, N = 1, 1 thread, Zen 5
 * VM (7 Dec 2026): 1536x384 96.3 us broadcast against 53.3 us for {@code csr-gather}'s same body
 * after its transpose; at N = 2 the two ran within 10 %, from N = 4 the broadcast body 1.6-3.4x faster.
 *
 * <p>Per SIMD vector (L lanes): see {@link BroadcastRows}: per entry 1 value load + broadcast and
 * 1 column-index load per column block, then per vector 1 aligned B load and 1 FMA; per row and
 * block the block's C stores. Tile: 8/4/2/1-vector column blocks, 8 accumulators at most (fits
 * AVX2's 16 registers); N = L and N = 2L run all rows in one tight loop. B is read from one
 * aligned copy.
 *
 * <p>Column passes, when B does not fit L2 ({@link #passColumns}: K x N x 4 bytes over
 * {@link #L2_SHARE} of this core's L2, from sysfs): each thread packs the first {@code pass}
 * columns of B (two vectors, or one when a two-vector panel does not fit that share either) into
 * an aligned {@code K x pass} panel and runs its whole rows over it in the tight loop of that
 * width ({@code twoVectorRows} / {@code oneVectorRows}), then the next {@code pass} columns, and so
 * on; the columns past the last whole pass run as one more pass in column blocks over the aligned
 * B. Per pass every row reads its row pointers, values and indices again, and the panel (K rows of
 * 128 bytes at 512 bits) stays in L2 where a B larger than L2 was read from L3 for every entry.
 * A row that the range only begins (the carry) runs the same passes, over the aligned B, one
 * after the other: the same blocks in the same order, so the same sums. On the Zen 4 VM (1 MiB
 * L2, 512 bits, 4 Dec 2026, docs/kernels.md) at 90%, N = 128, 1 thread: 3072x3072 28.6-29.7 ->
 * 39.1-40.6 GFLOP/s, 4096x4096 27.3-28.6 -> 38.6-41.2; 384x1536 (B 768 KiB) 48.0-49.5 -> 46.8-47.0.
 */
public final class CsrSpmm extends SliceKernel {
    /** The share of L2 that B, or a pass's panel of it, may take: the rest holds A's streams and C. */
    public static final double L2_SHARE = 0.5;
    /** This core's L2 (sysfs), read once: what the column passes are sized by. */
    private static final long MACHINE_L2_BYTES = CoreCaches.ofThisMachine().l2Bytes();

    private final long l2Bytes;

    /** Over CSR ({@code csr}) or ELL ({@code ell}) slices, passes sized by an L2 of {@code l2Bytes} (tests pass a small one). */
    CsrSpmm(SliceFormat format, long l2Bytes) {
        super(format);
        this.l2Bytes = l2Bytes;
    }

    /** Over CSR ({@code csr}) or ELL ({@code ell}) slices, passes sized by this core's L2. */
    CsrSpmm(SliceFormat format) {
        this(format, MACHINE_L2_BYTES);
    }

    public CsrSpmm() {
        this(SliceFormat.CSR);
    }

    /**
     * Columns of each packed column pass for a B of {@code k x n} at {@code lanes} fp32 lanes and an
     * L2 of {@code l2Bytes}, or {@code n} when one pass over the aligned B serves: N of one or two
     * vectors (their tight loops read B whole), or B within {@link #L2_SHARE} of L2. Else two
     * vectors when a {@code k x 2L} panel fits that share, one vector when not. The CPU time model
     * counts the same passes (perfmodel.cpu.LoopNests, on a spec's L2).
     */
    public static int passColumns(long k, int n, int lanes, long l2Bytes) {
        if (n <= 2 * lanes) return n;
        double share = l2Bytes * L2_SHARE;
        if ((double) k * n * Float.BYTES <= share) return n;
        return (double) k * 2 * lanes * Float.BYTES <= share ? 2 * lanes : lanes;
    }

    private int passColumns(int k, int n) {
        return passColumns(k, n, BroadcastRows.L, l2Bytes);
    }

    @Override public String name() { return sliceFormat() == SliceFormat.CSR ? "csr" : "ell"; }

    /** The traced twin's accumulators, then (with passes) its packed panel. */
    @Override
    public int scratchFloats(RowSlices a, int n) {
        int pass = passColumns(a.cols(), n);
        return BroadcastRows.TRACE_SCRATCH_FLOATS + (pass < n ? Math.multiplyExact(a.cols(), pass) : 0);
    }

    /** The fast path's packed panel of one pass (none without passes). */
    @Override
    public long alignedScratchFloats(RowSlices a, int n) {
        int pass = passColumns(a.cols(), n);
        return pass < n ? (long) a.cols() * pass : 0;
    }

    /** Every N but 1, whose gather dot reads B itself (a gather loads from an array, not from a memory segment). */
    @Override public boolean readsAlignedB(int n) { return n > 1; }

    @Override
    void row(Operands<RowSlices> op, int r, int from, int to, Workspace ws) {
        RowSlices a = op.a();
        if (op.n() == 1) {
            output(op, r, ws)[outputOffset(op, r, ws)] = GatherRows.dot(a.values(), a.columnIndices(), from, to, op.b(), 0);
            return;
        }
        BroadcastRows.computePasses(op, ws.rowSlice().set(a.values(), a.columnIndices(), 0, from, to, true),
                output(op, r, ws), outputOffset(op, r, ws), passColumns(a.cols(), op.n()));
    }

    /**
     * N = 1: each row's gather dot ({@link GatherRows}), rows in turn with no per-row dispatch.
     * N = one vector exactly (16 on AVX-512, 8 on AVX2) or two (32, 16): all rows in one tight loop,
     * no per-row dispatch; with column passes, the tight loop of the pass's width over each packed
     * panel, then the rest of the columns row by row.
     */
    @Override
    void wholeRows(Operands<RowSlices> op, int rowStart, int rowEnd, int nzStart, Workspace ws) {
        RowSlices a = op.a();
        int n = op.n();
        int pass = passColumns(a.cols(), n);
        if (n == 1) {
            float[] vals = a.values();
            int[] cols = a.columnIndices();
            int[] ptr = a.rowStarts();
            float[] b = op.b();
            float[] c = op.c();
            for (int r = rowStart; r < rowEnd; r++) c[r] = GatherRows.dot(vals, cols, Math.max(ptr[r], nzStart), ptr[r + 1], b, 0);
        } else if (n == BroadcastRows.L) {
            BroadcastRows.oneVectorRows(op, a.values(), a.columnIndices(), a.rowStarts(), rowStart, rowEnd, nzStart);
        } else if (n == 2 * BroadcastRows.L) {
            BroadcastRows.twoVectorRows(op, a.values(), a.columnIndices(), a.rowStarts(), rowStart, rowEnd, nzStart);
        } else if (pass >= n) {
            super.wholeRows(op, rowStart, rowEnd, nzStart, ws);
        } else {
            MemorySegment panel = ws.alignedScratch();
            int packedEnd = n / pass * pass;
            for (int p0 = 0; p0 < packedEnd; p0 += pass) {
                pack(op, p0, pass, panel);
                if (pass == BroadcastRows.L) {
                    BroadcastRows.oneVectorRows(panel, op.c(), n, p0, a.values(), a.columnIndices(), a.rowStarts(), rowStart, rowEnd, nzStart);
                } else {
                    BroadcastRows.twoVectorRows(panel, op.c(), n, p0, a.values(), a.columnIndices(), a.rowStarts(), rowStart, rowEnd, nzStart);
                }
            }
            if (packedEnd < n) {
                int[] ptr = a.rowStarts();
                for (int r = rowStart; r < rowEnd; r++) {
                    BroadcastRows.compute(op, ws.rowSlice().set(a.values(), a.columnIndices(), 0, Math.max(ptr[r], nzStart), ptr[r + 1], true),
                            op.c(), r * n, packedEnd, n);
                }
            }
        }
    }

    /** Copies B's columns {@code [p0, p0 + pass)} of every row into the aligned panel ({@code pass} floats a row). */
    private static void pack(Operands<RowSlices> op, int p0, int pass, MemorySegment panel) {
        float[] b = op.b();
        int n = op.n();
        int k = op.a().cols();
        long rowBytes = (long) pass * Float.BYTES;
        for (int kk = 0; kk < k; kk++) MemorySegment.copy(b, kk * n + p0, panel, ValueLayout.JAVA_FLOAT, kk * rowBytes, pass);
    }

    @Override
    void traceWholeRows(Operands<RowSlices> op, int rowStart, int rowEnd, int nzStart, Workspace ws, Tracer tracer) {
        RowSlices a = op.a();
        int n = op.n();
        int k = a.cols();
        int pass = passColumns(k, n);
        if (pass >= n) {
            super.traceWholeRows(op, rowStart, rowEnd, nzStart, ws, tracer);
            return;
        }
        float[] scratch = ws.scratch();
        int base = BroadcastRows.TRACE_SCRATCH_FLOATS;
        int packedEnd = n / pass * pass;
        for (int p0 = 0; p0 < n; p0 += pass) {
            boolean packed = p0 < packedEnd;
            if (packed) {
                for (int kk = 0; kk < k; kk++) {
                    System.arraycopy(op.b(), kk * n + p0, scratch, base + kk * pass, pass);
                    tracer.readFloats(ArrayRole.B_GATHER, (long) kk * n + p0, pass);
                    tracer.writeScratch(ArrayRole.B_GATHER, base + (long) kk * pass, pass);
                }
            }
            BroadcastRows.BRows src = packed ? new BroadcastRows.BRows(scratch, base, pass, p0, true) : BroadcastRows.BRows.of(op);
            int p1 = packed ? p0 + pass : n;
            traceRows(op, rowStart, rowEnd, nzStart, ws, tracer, p0, p1, src);
            if (!packed) break;
        }
    }

    /** One pass of the traced twin: each whole row's row pointers and its entries over columns {@code [p0, p1)}. */
    private void traceRows(Operands<RowSlices> op, int rowStart, int rowEnd, int nzStart, Workspace ws, Tracer tracer,
                           int p0, int p1, BroadcastRows.BRows src) {
        RowSlices a = op.a();
        int[] ptr = a.rowStarts();
        boolean pointers = rowPointersStored(a);
        for (int r = rowStart; r < rowEnd; r++) {
            if (pointers) {
                tracer.readPointerPair(r);
            }
            BroadcastRows.trace(op, new BroadcastRows.Slice(a.values(), a.columnIndices(), 0, Math.max(ptr[r], nzStart), ptr[r + 1], true),
                    op.c(), r * op.n(), ws.scratch(), tracer, p0, p1, src);
        }
    }

    @Override
    void traceRow(Operands<RowSlices> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        RowSlices a = op.a();
        BroadcastRows.tracePasses(op, new BroadcastRows.Slice(a.values(), a.columnIndices(), 0, from, to, true),
                output(op, r, ws), outputOffset(op, r, ws), ws.scratch(), tracer, passColumns(a.cols(), op.n()));
    }
}
