package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Map;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The dense GEMM baseline, so that sparse-versus-dense comparisons are fair: cache-blocked
 * (C column panels of {@link #NC}, K blocks of {@link #KC}), B packed per block into contiguous
 * zero-padded panels of {@link #NR} columns (64-byte aligned, off-heap), and register-blocked
 * micro-kernels. Where the packed B of all K fits half of L2 ({@link #packsWholeK}), every K block
 * of a C block is packed first and each chunk of {@link #CHUNK_ROWS} rows runs all of them before
 * the next chunk, so its C rows stay in L1 between K blocks; else each K block is packed and run
 * over all rows in turn. The same micro-kernel calls either way, in another order. Rows are split among threads; each thread packs the B panels it uses into its
 * own scratch. The blocking is {@link DenseTiling#choose} of the kernels' vector width
 * ({@link KernelVectors}) and this core's L1d/L2 ({@link CoreCaches}), fixed when the class loads.
 *
 * <p>What the loops execute (L = fp32 lanes per vector; for the CPU time model):
 * <ul>
 * <li>per K block of {@code kc} and C block of {@code nc} columns: pack B, {@code kc x nc} floats
 *     copied (per row of the block, {@code ceil(nc/NR)} copies of NR floats, zero padding);
 * <li>wide tile ({@code N > L}): 32 registers (512-bit): {@code micro4x4}, 4 rows x 4 vectors;
 *     16 registers (256-bit and narrower): {@code micro6x2}, 6 rows x 2 vectors. Per k:
 *     {@code vectors} aligned vector loads of the packed panel, {@code rows} scalar loads +
 *     broadcasts of A, {@code rows x vectors} FMAs; per tile and K block: {@code rows x vectors}
 *     vector stores of C (plus as many loads of C after the first K block, before the K loop: a
 *     later block's accumulators start from C);
 * <li>panels: NR columns while a whole NR panel fits, then two-vector panels while more than one
 *     vector of columns is left, then a one-vector panel ({@link #panelWidth}): N = 32 at 16 lanes
 *     is one 32-column panel, N = 48 a 32- and a 16-column one, N = 80 a 64- and a 16-column one;
 *     only the last panel is partial (its zero columns are multiplied);
 * <li>two-vector panels at 32 registers: {@code micro6x2}, 6 rows x 2 vectors (as the wide tile
 *     at 16 registers, where NR is two vectors);
 * <li>narrow tile (one-vector panels; N <= L is one): {@code microNarrow}, 8 rows x 1 vector:
 *     per k 1 vector load, 8 broadcasts, 8 FMAs;
 * <li>rows past the last multiple of the tile's rows: one-row kernels of the same width
 *     (per k {@code vectors} loads, 1 broadcast, {@code vectors} FMAs);
 * <li>a partial panel computes the whole panel into a tile in scratch and copies its valid
 *     columns (scalar) into C;
 * <li>N = 1: no packing and no micro-kernel, a matrix-vector product along K ({@link DenseGemv}).
 * </ul>
 */
public final class DenseGemm implements SpmmKernel<DenseMatrix> {
    private static final VectorSpecies<Float> S = KernelVectors.FLOATS;
    private static final int L = S.length();
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final long VECTOR_BYTES = (long) L * Float.BYTES;
    /** The blocking of this machine: vector width and cache sizes. */
    static final DenseTiling TILING = chooseTiling();
    /** Rows of the wide micro-kernel. */
    static final int MR = TILING.rows();
    /** Vectors of the wide micro-kernel: 4 (micro4x4) or 2 (micro6x2). */
    static final int VECTORS = TILING.vectors();
    /** Columns of a packed panel. */
    static final int NR = TILING.panelColumns();
    /** Rows of the narrow micro-kernel (one vector of columns). */
    static final int MR_NARROW = DenseTiling.NARROW_ROWS;
    /** Rows of the two-vector micro-kernel ({@code micro6x2}) on a two-vector panel. */
    static final int MR_TWO = DenseTiling.TWO_VECTOR_ROWS;
    /** Floats of the tile scratch: the largest register tile of any panel width. */
    private static final int TILE_FLOATS = Math.max(MR * NR, Math.max(MR_TWO * 2 * L, MR_NARROW * L));
    /** K block: the MR x KC sliver of A stays in L1. */
    static final int KC = TILING.kc();
    /** Columns of C per outer block: the packed KC x NC block stays in L2. */
    static final int NC = TILING.nc();

    /** This machine's blocking (benchmarks print it). */
    public static DenseTiling tiling() { return TILING; }

    private static DenseTiling chooseTiling() {
        CoreCaches caches = CoreCaches.ofThisMachine();
        return DenseTiling.choose(S.vectorBitSize(), caches.l1dBytes(), caches.l2Bytes());
    }

    @Override public boolean fmaBound() { return true; }

    @Override public String name() { return "dense"; }

    @Override public DenseMatrix prepare(MatrixView matrix) { return DenseMatrix.from(matrix); }

    @Override public int rows(DenseMatrix a) { return a.rows(); }

    @Override public int cols(DenseMatrix a) { return a.cols(); }

    @Override public long storedEntries(DenseMatrix a) { return (long) a.rows() * a.cols(); }

    @Override public long formatBytes(DenseMatrix a) { return storedEntries(a) * Float.BYTES; }

    @Override public Map<ArrayRole, Long> arrayBytes(DenseMatrix a) { return Map.of(ArrayRole.DENSE_A, formatBytes(a)); }

    @Override
    public int[] rowWork(DenseMatrix a) {
        int[] work = new int[a.rows() + 1];
        for (int r = 0; r < a.rows(); r++) work[r + 1] = Math.addExact(work[r], a.cols());
        return work;
    }

    @Override public boolean splitsRows() { return false; }

    /**
     * The packed B of one C block, then an MR x NR tile (partial stores, the traced twin's accumulators):
     * every K block of it where they fit {@link #packsWholeK}, else one KC x NC block.
     */
    @Override
    public int scratchFloats(DenseMatrix a, int n) {
        if (n == 1) return DenseGemv.ROWS * L; // the matrix-vector product's traced lanes
        int nc = Math.min(n, NC);
        return Math.toIntExact((long) (packsWholeK(a.cols(), nc) ? a.cols() : KC) * TILING.paddedColumns(nc) + TILE_FLOATS);
    }

    /**
     * Rows that run every K block of a C block before the next rows do ({@link DenseTiling#CHUNK_ROWS}).
     * Looping K blocks outside all rows instead sent a C larger than L2 to L3 and back once per K block:
     * 3072 x 768 x 128 at 256 bits (6 K blocks of 128, C 1.5 MiB) ran 57-69 GFLOP/s against 81 for
     * 1536 x 384 on the Zen 4 VM.
     */
    static final int CHUNK_ROWS = DenseTiling.CHUNK_ROWS;
    /** This core's L2, which decides {@link #packsWholeK}. */
    private static final long MACHINE_L2_BYTES = CoreCaches.ofThisMachine().l2Bytes();

    /** Whether the packed B of all {@code k} rows of a C block of {@code nc} columns fits half of this core's L2 ({@link DenseTiling#packsWholeK}). */
    static boolean packsWholeK(int k, int nc) {
        return TILING.packsWholeK(k, nc, MACHINE_L2_BYTES);
    }

    /** Floats of one packed row of a C block of {@code nc} columns: its panels' widths. */
    private static int packedWidth(int nc) {
        int width = 0;
        for (int col = 0; col < nc; col += panelWidth(col, nc)) width += panelWidth(col, nc);
        return width;
    }

    /** The fast path's packed KC x NC block, 64-byte aligned off-heap (one cache line per load). */
    @Override
    public long alignedScratchFloats(DenseMatrix a, int n) {
        return n == 1 ? 0 : scratchFloats(a, n) - TILE_FLOATS;
    }

    /**
     * Columns of the packed panel that starts at column {@code col} of a C block of {@code nc}:
     * NR while a whole NR panel fits, then two vectors while more than one vector is left, then
     * one vector (N = 32 at 16 lanes is one 32-column panel, N = 48 a 32- and a 16-column one, not a
     * 64-column panel a third or half zeros).
     */
    static int panelWidth(int col, int nc) {
        int left = nc - col;
        return left >= NR ? NR : left > L ? 2 * L : L;
    }

    /**
     * Rows of the wide register tile on this machine (4 on 32 vector registers, 6 on 16): rows past
     * the last multiple of it run one-row kernels, so a measurement of the tile's rate takes whole
     * multiples of it.
     */
    public static int wideTileRows() {
        return MR;
    }

    /** Rows of the register tile that runs a panel of {@code width} columns. */
    static int tileRows(int width) {
        return width == NR ? MR : width == 2 * L ? MR_TWO : MR_NARROW;
    }

    /** Packed panels of a C block of {@code nc} columns. */
    static int panelCount(int nc) {
        int count = 0;
        for (int col = 0; col < nc; col += panelWidth(col, nc)) count++;
        return count;
    }

    /** Columns {@code [0, wideEnd)} of a C block of {@code nc} are whole NR panels. */
    private static int wideEnd(int nc) {
        return nc / NR * NR;
    }

    @Override
    public void runRange(Operands<DenseMatrix> op, WorkRange range, Workspace ws) {
        int n = op.n();
        int k = op.a().cols();
        if (n == 1) {
            ws.setCarryRow(-1);
            DenseGemv.run(op.a().values(), k, op.b(), op.c(), range.rowStart(), range.rowEnd());
            return;
        }
        MemorySegment packed = ws.alignedScratch();
        float[] tile = ws.scratch();
        int tileAt = tile.length - TILE_FLOATS;
        ws.setCarryRow(-1);
        for (int j0 = 0; j0 < n; j0 += NC) {
            int nc = Math.min(NC, n - j0);
            if (packsWholeK(k, nc)) {
                // every K block packed first, then each chunk of rows runs all of them: its C rows stay in L1 between blocks
                long stride = packedWidth(nc);
                for (int k0 = 0; k0 < k; k0 += KC) packAligned(op.b(), n, new Panel(k0, Math.min(KC, k - k0), j0, nc), packed.asSlice(k0 * stride * Float.BYTES));
                for (int r0 = range.rowStart(); r0 < range.rowEnd(); r0 += CHUNK_ROWS) {
                    int r1 = Math.min(range.rowEnd(), r0 + CHUNK_ROWS);
                    for (int k0 = 0; k0 < k; k0 += KC) runBlock(op, packed, (int) (k0 * stride), new Panel(k0, Math.min(KC, k - k0), j0, nc), r0, r1, tile, tileAt);
                }
            } else {
                for (int k0 = 0; k0 < k; k0 += KC) {
                    Panel q = new Panel(k0, Math.min(KC, k - k0), j0, nc);
                    packAligned(op.b(), n, q, packed);
                    runBlock(op, packed, 0, q, range.rowStart(), range.rowEnd(), tile, tileAt);
                }
            }
        }
    }

    /** Rows {@code [r0, r1)} times one packed K block of B (at float {@code base} of {@code packed}) into C's block columns. */
    private void runBlock(Operands<DenseMatrix> op, MemorySegment packed, int base, Panel q, int r0, int r1, float[] tile, int tileAt) {
        int n = op.n();
        int k = op.a().cols();
        int kc = q.kc(), k0 = q.k0(), j0 = q.j0(), nc = q.nc(), wide = wideEnd(nc);
        boolean accumulate = q.accumulates();
        // whole NR panels: each row tile's A sliver stays in L1 across them
        int i = r0;
        for (; i + MR <= r1; i += MR) {
            for (int col = 0; col < wide; col += NR) {
                if (VECTORS == 4) micro4x4(op, packed, base + col * kc, kc, i * k + k0, i * n + j0 + col, NR, accumulate, tile, tileAt);
                else micro6x2(op, packed, base + col * kc, NR, kc, i * k + k0, i * n + j0 + col, NR, accumulate, tile, tileAt);
            }
        }
        for (; i < r1; i++) {
            for (int col = 0; col < wide; col += NR) {
                if (VECTORS == 4) micro1x4(op, packed, base + col * kc, kc, i * k + k0, i * n + j0 + col, NR, accumulate, tile, tileAt);
                else micro1x2(op, packed, base + col * kc, NR, kc, i * k + k0, i * n + j0 + col, NR, accumulate, tile, tileAt);
            }
        }
        // the rest: two-vector and one-vector panels, each with its own row tiles
        for (int col = wide; col < nc; ) {
            int w = panelWidth(col, nc);
            int valid = Math.min(w, nc - col);
            int rows = tileRows(w);
            int r = r0;
            for (; r + rows <= r1; r += rows) {
                if (w == L) microNarrow(op, packed, base + col * kc, kc, r * k + k0, r * n + j0 + col, valid, accumulate, tile, tileAt);
                else micro6x2(op, packed, base + col * kc, w, kc, r * k + k0, r * n + j0 + col, valid, accumulate, tile, tileAt);
            }
            for (; r < r1; r++) {
                if (w == L) microNarrow1(op, packed, base + col * kc, kc, r * k + k0, r * n + j0 + col, valid, accumulate, tile, tileAt);
                else micro1x2(op, packed, base + col * kc, w, kc, r * k + k0, r * n + j0 + col, valid, accumulate, tile, tileAt);
            }
            col += w;
        }
    }

    @Override
    public void traceRange(Operands<DenseMatrix> op, WorkRange range, Workspace ws, Tracer tracer) {
        int n = op.n();
        int k = op.a().cols();
        if (n == 1) {
            ws.setCarryRow(-1);
            DenseGemv.trace(op.a().values(), k, op.b(), op.c(), range.rowStart(), range.rowEnd(), ws.scratch(), tracer);
            return;
        }
        float[] packed = ws.scratch();
        ws.setCarryRow(-1);
        for (int j0 = 0; j0 < n; j0 += NC) {
            int nc = Math.min(NC, n - j0);
            if (packsWholeK(k, nc)) {
                long stride = packedWidth(nc);
                for (int k0 = 0; k0 < k; k0 += KC) tracePack(op.b(), n, new Panel(k0, Math.min(KC, k - k0), j0, nc), packed, (int) (k0 * stride), tracer);
                for (int r0 = range.rowStart(); r0 < range.rowEnd(); r0 += CHUNK_ROWS) {
                    int r1 = Math.min(range.rowEnd(), r0 + CHUNK_ROWS);
                    for (int k0 = 0; k0 < k; k0 += KC) traceBlock(op, (int) (k0 * stride), new Panel(k0, Math.min(KC, k - k0), j0, nc), r0, r1, ws, tracer);
                }
            } else {
                for (int k0 = 0; k0 < k; k0 += KC) {
                    Panel q = new Panel(k0, Math.min(KC, k - k0), j0, nc);
                    tracePack(op.b(), n, q, packed, 0, tracer);
                    traceBlock(op, 0, q, range.rowStart(), range.rowEnd(), ws, tracer);
                }
            }
        }
    }

    /** The traced twin of {@link #runBlock}. */
    private void traceBlock(Operands<DenseMatrix> op, int base, Panel q, int r0, int r1, Workspace ws, Tracer tracer) {
        int kc = q.kc(), k0 = q.k0(), j0 = q.j0(), nc = q.nc(), wide = wideEnd(nc);
        boolean accumulate = q.accumulates();
        int i = r0;
        for (; i + MR <= r1; i += MR) {
            for (int col = 0; col < wide; col += NR) traceMicro(op, new Tile(i, MR, base + col * kc, kc, k0, j0 + col, NR, accumulate, NR), ws, tracer);
        }
        for (; i < r1; i++) {
            for (int col = 0; col < wide; col += NR) traceMicro(op, new Tile(i, 1, base + col * kc, kc, k0, j0 + col, NR, accumulate, NR), ws, tracer);
        }
        for (int col = wide; col < nc; ) {
            int w = panelWidth(col, nc);
            int valid = Math.min(w, nc - col);
            int rows = tileRows(w);
            int r = r0;
            for (; r + rows <= r1; r += rows) traceMicro(op, new Tile(r, rows, base + col * kc, kc, k0, j0 + col, valid, accumulate, w), ws, tracer);
            for (; r < r1; r++) traceMicro(op, new Tile(r, 1, base + col * kc, kc, k0, j0 + col, valid, accumulate, w), ws, tracer);
            col += w;
        }
    }

    /** One K block of B to pack: rows {@code k0..k0+kc}, columns {@code j0..j0+nc}, in {@link #panelWidth} panels. */
    record Panel(int k0, int kc, int j0, int nc) {
        /** Whether a tile adds this block to C rather than starting C from it: every K block after the first. */
        boolean accumulates() {
            return k0 > 0;
        }
    }

    /** Packs B[k0..k0+kc, j0..j0+nc) into panels (the one at column {@code col} from {@code base + kc * col}), zero-padded past nc. */
    private static void pack(float[] b, int n, Panel q, float[] packed, int base) {
        for (int col = 0; col < q.nc(); ) {
            int nr = panelWidth(col, q.nc());
            int width = Math.min(nr, q.nc() - col);
            int dst = base + col * q.kc();
            for (int kk = 0; kk < q.kc(); kk++) {
                System.arraycopy(b, (q.k0() + kk) * n + q.j0() + col, packed, dst, width);
                for (int x = width; x < nr; x++) packed[dst + x] = 0f;
                dst += nr;
            }
            col += nr;
        }
    }

    /** {@link #pack} into the aligned off-heap scratch. */
    static void packAligned(float[] b, int n, Panel q, MemorySegment packed) {
        for (int col = 0; col < q.nc(); ) {
            int nr = panelWidth(col, q.nc());
            int width = Math.min(nr, q.nc() - col);
            long dst = (long) col * q.kc() * Float.BYTES;
            for (int kk = 0; kk < q.kc(); kk++) {
                MemorySegment.copy(b, (q.k0() + kk) * n + q.j0() + col, packed, ValueLayout.JAVA_FLOAT, dst, width);
                for (int x = width; x < nr; x++) packed.set(ValueLayout.JAVA_FLOAT, dst + (long) x * Float.BYTES, 0f);
                dst += (long) nr * Float.BYTES;
            }
            col += nr;
        }
    }

    private static void tracePack(float[] b, int n, Panel q, float[] packed, int base, Tracer tracer) {
        pack(b, n, q, packed, base);
        for (int col = 0; col < q.nc(); ) {
            int nr = panelWidth(col, q.nc());
            int width = Math.min(nr, q.nc() - col);
            for (int kk = 0; kk < q.kc(); kk++) {
                tracer.readFloats(ArrayRole.B_GATHER, (long) (q.k0() + kk) * n + q.j0() + col, width);
                tracer.writeScratch(ArrayRole.B_GATHER, base + (long) col * q.kc() + kk * nr, nr);
            }
            col += nr;
        }
    }

    /** C[4 rows, NR cols] (+)= A[4 rows, kc] x packed panel; stores the first {@code valid} columns. */
    private static void micro4x4(Operands<DenseMatrix> op, MemorySegment packed, int pOff, int kc, int aOff, int cOff,
                               int valid, boolean accumulate, float[] tile, int tileAt) {
        float[] a = op.a().values();
        int lda = op.a().cols();
        int a0 = aOff, a1 = aOff + lda, a2 = aOff + 2 * lda, a3 = aOff + 3 * lda;
        float[] c = op.c();
        int n = op.n();
        boolean direct = valid == NR;
        float[] out = direct ? c : tile;
        int o0 = direct ? cOff : tileAt;
        int o1 = direct ? cOff + n : tileAt + NR;
        int o2 = direct ? cOff + 2 * n : tileAt + 2 * NR;
        int o3 = direct ? cOff + 3 * n : tileAt + 3 * NR;
        // a later K block starts from C (micro6x2 says why)
        boolean fromC = direct && accumulate;
        FloatVector z = FloatVector.zero(S);
        FloatVector c00 = fromC ? FloatVector.fromArray(S, c, o0) : z, c01 = fromC ? FloatVector.fromArray(S, c, o0 + L) : z;
        FloatVector c02 = fromC ? FloatVector.fromArray(S, c, o0 + 2 * L) : z, c03 = fromC ? FloatVector.fromArray(S, c, o0 + 3 * L) : z;
        FloatVector c10 = fromC ? FloatVector.fromArray(S, c, o1) : z, c11 = fromC ? FloatVector.fromArray(S, c, o1 + L) : z;
        FloatVector c12 = fromC ? FloatVector.fromArray(S, c, o1 + 2 * L) : z, c13 = fromC ? FloatVector.fromArray(S, c, o1 + 3 * L) : z;
        FloatVector c20 = fromC ? FloatVector.fromArray(S, c, o2) : z, c21 = fromC ? FloatVector.fromArray(S, c, o2 + L) : z;
        FloatVector c22 = fromC ? FloatVector.fromArray(S, c, o2 + 2 * L) : z, c23 = fromC ? FloatVector.fromArray(S, c, o2 + 3 * L) : z;
        FloatVector c30 = fromC ? FloatVector.fromArray(S, c, o3) : z, c31 = fromC ? FloatVector.fromArray(S, c, o3 + L) : z;
        FloatVector c32 = fromC ? FloatVector.fromArray(S, c, o3 + 2 * L) : z, c33 = fromC ? FloatVector.fromArray(S, c, o3 + 3 * L) : z;
        for (int kk = 0; kk < kc; kk++) {
            long pb = (long) (pOff + kk * NR) * Float.BYTES;
            FloatVector b0 = FloatVector.fromMemorySegment(S, packed, pb, ORDER);
            FloatVector b1 = FloatVector.fromMemorySegment(S, packed, pb + VECTOR_BYTES, ORDER);
            FloatVector b2 = FloatVector.fromMemorySegment(S, packed, pb + 2 * VECTOR_BYTES, ORDER);
            FloatVector b3 = FloatVector.fromMemorySegment(S, packed, pb + 3 * VECTOR_BYTES, ORDER);
            FloatVector x = FloatVector.broadcast(S, a[a0 + kk]);
            c00 = b0.fma(x, c00); c01 = b1.fma(x, c01); c02 = b2.fma(x, c02); c03 = b3.fma(x, c03);
            x = FloatVector.broadcast(S, a[a1 + kk]);
            c10 = b0.fma(x, c10); c11 = b1.fma(x, c11); c12 = b2.fma(x, c12); c13 = b3.fma(x, c13);
            x = FloatVector.broadcast(S, a[a2 + kk]);
            c20 = b0.fma(x, c20); c21 = b1.fma(x, c21); c22 = b2.fma(x, c22); c23 = b3.fma(x, c23);
            x = FloatVector.broadcast(S, a[a3 + kk]);
            c30 = b0.fma(x, c30); c31 = b1.fma(x, c31); c32 = b2.fma(x, c32); c33 = b3.fma(x, c33);
        }
        // Stores stay in this method: a FloatVector passed to a call the JIT does not inline is boxed.
        c00.intoArray(out, o0); c01.intoArray(out, o0 + L); c02.intoArray(out, o0 + 2 * L); c03.intoArray(out, o0 + 3 * L);
        c10.intoArray(out, o1); c11.intoArray(out, o1 + L); c12.intoArray(out, o1 + 2 * L); c13.intoArray(out, o1 + 3 * L);
        c20.intoArray(out, o2); c21.intoArray(out, o2 + L); c22.intoArray(out, o2 + 2 * L); c23.intoArray(out, o2 + 3 * L);
        c30.intoArray(out, o3); c31.intoArray(out, o3 + L); c32.intoArray(out, o3 + 2 * L); c33.intoArray(out, o3 + 3 * L);
        if (!direct) copyTile(tile, tileAt, NR, MR, c, cOff, n, valid, accumulate);
    }

    /**
     * C[6 rows, 2 vectors] (+)= A[6 rows, kc] x a two-vector packed panel ({@code nr} = 2L): the
     * 16-register tile (NR), and at 32 registers the two-vector panels of the narrow columns.
     */
    private static void micro6x2(Operands<DenseMatrix> op, MemorySegment packed, int pOff, int nr, int kc, int aOff, int cOff,
                                 int valid, boolean accumulate, float[] tile, int tileAt) {
        float[] a = op.a().values();
        int lda = op.a().cols();
        int a0 = aOff, a1 = aOff + lda, a2 = aOff + 2 * lda, a3 = aOff + 3 * lda, a4 = aOff + 4 * lda, a5 = aOff + 5 * lda;
        float[] c = op.c();
        int n = op.n();
        boolean direct = valid == nr;
        float[] out = direct ? c : tile;
        int stride = direct ? n : nr;
        int o0 = direct ? cOff : tileAt;
        int o1 = o0 + stride, o2 = o0 + 2 * stride, o3 = o0 + 3 * stride, o4 = o0 + 4 * stride, o5 = o0 + 5 * stride;
        // The accumulators start from C (a later K block) rather than adding C after the loop: with
        // the add after it, C2 compiled the 16-register loop (12 accumulators, 2 of B, 1 of A) about
        // 15 % slower once a call had taken that path (issue 12; docs/kernels.md).
        FloatVector c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
        if (direct && accumulate) {
            c00 = FloatVector.fromArray(S, c, o0); c01 = FloatVector.fromArray(S, c, o0 + L);
            c10 = FloatVector.fromArray(S, c, o1); c11 = FloatVector.fromArray(S, c, o1 + L);
            c20 = FloatVector.fromArray(S, c, o2); c21 = FloatVector.fromArray(S, c, o2 + L);
            c30 = FloatVector.fromArray(S, c, o3); c31 = FloatVector.fromArray(S, c, o3 + L);
            c40 = FloatVector.fromArray(S, c, o4); c41 = FloatVector.fromArray(S, c, o4 + L);
            c50 = FloatVector.fromArray(S, c, o5); c51 = FloatVector.fromArray(S, c, o5 + L);
        } else {
            c00 = FloatVector.zero(S); c01 = c00; c10 = c00; c11 = c00; c20 = c00; c21 = c00;
            c30 = c00; c31 = c00; c40 = c00; c41 = c00; c50 = c00; c51 = c00;
        }
        for (int kk = 0; kk < kc; kk++) {
            long pb = (long) (pOff + kk * nr) * Float.BYTES;
            FloatVector b0 = FloatVector.fromMemorySegment(S, packed, pb, ORDER);
            FloatVector b1 = FloatVector.fromMemorySegment(S, packed, pb + VECTOR_BYTES, ORDER);
            FloatVector x = FloatVector.broadcast(S, a[a0 + kk]);
            c00 = b0.fma(x, c00); c01 = b1.fma(x, c01);
            x = FloatVector.broadcast(S, a[a1 + kk]);
            c10 = b0.fma(x, c10); c11 = b1.fma(x, c11);
            x = FloatVector.broadcast(S, a[a2 + kk]);
            c20 = b0.fma(x, c20); c21 = b1.fma(x, c21);
            x = FloatVector.broadcast(S, a[a3 + kk]);
            c30 = b0.fma(x, c30); c31 = b1.fma(x, c31);
            x = FloatVector.broadcast(S, a[a4 + kk]);
            c40 = b0.fma(x, c40); c41 = b1.fma(x, c41);
            x = FloatVector.broadcast(S, a[a5 + kk]);
            c50 = b0.fma(x, c50); c51 = b1.fma(x, c51);
        }
        c00.intoArray(out, o0); c01.intoArray(out, o0 + L); c10.intoArray(out, o1); c11.intoArray(out, o1 + L);
        c20.intoArray(out, o2); c21.intoArray(out, o2 + L); c30.intoArray(out, o3); c31.intoArray(out, o3 + L);
        c40.intoArray(out, o4); c41.intoArray(out, o4 + L); c50.intoArray(out, o5); c51.intoArray(out, o5 + L);
        if (!direct) copyTile(tile, tileAt, nr, MR_TWO, c, cOff, n, valid, accumulate);
    }

    /** The one-row, two-vector kernel for the rows past the last tile of {@link #micro6x2}. */
    private static void micro1x2(Operands<DenseMatrix> op, MemorySegment packed, int pOff, int nr, int kc, int aOff, int cOff,
                                 int valid, boolean accumulate, float[] tile, int tileAt) {
        float[] a = op.a().values();
        float[] c = op.c();
        boolean direct = valid == nr;
        float[] out = direct ? c : tile;
        int o = direct ? cOff : tileAt;
        boolean fromC = direct && accumulate;
        FloatVector c0 = fromC ? FloatVector.fromArray(S, c, o) : FloatVector.zero(S);
        FloatVector c1 = fromC ? FloatVector.fromArray(S, c, o + L) : FloatVector.zero(S);
        for (int kk = 0; kk < kc; kk++) {
            long pb = (long) (pOff + kk * nr) * Float.BYTES;
            FloatVector x = FloatVector.broadcast(S, a[aOff + kk]);
            c0 = FloatVector.fromMemorySegment(S, packed, pb, ORDER).fma(x, c0);
            c1 = FloatVector.fromMemorySegment(S, packed, pb + VECTOR_BYTES, ORDER).fma(x, c1);
        }
        c0.intoArray(out, o); c1.intoArray(out, o + L);
        if (!direct) copyTile(tile, tileAt, nr, 1, c, cOff, op.n(), valid, accumulate);
    }

    /** The one-row, four-vector kernel for the rows past the last multiple of MR (32-register tiling). */
    private static void micro1x4(Operands<DenseMatrix> op, MemorySegment packed, int pOff, int kc, int aOff, int cOff,
                               int valid, boolean accumulate, float[] tile, int tileAt) {
        float[] a = op.a().values();
        float[] c = op.c();
        boolean direct = valid == NR;
        float[] out = direct ? c : tile;
        int o = direct ? cOff : tileAt;
        boolean fromC = direct && accumulate;
        FloatVector z = FloatVector.zero(S);
        FloatVector c0 = fromC ? FloatVector.fromArray(S, c, o) : z, c1 = fromC ? FloatVector.fromArray(S, c, o + L) : z;
        FloatVector c2 = fromC ? FloatVector.fromArray(S, c, o + 2 * L) : z, c3 = fromC ? FloatVector.fromArray(S, c, o + 3 * L) : z;
        for (int kk = 0; kk < kc; kk++) {
            long pb = (long) (pOff + kk * NR) * Float.BYTES;
            FloatVector x = FloatVector.broadcast(S, a[aOff + kk]);
            c0 = FloatVector.fromMemorySegment(S, packed, pb, ORDER).fma(x, c0);
            c1 = FloatVector.fromMemorySegment(S, packed, pb + VECTOR_BYTES, ORDER).fma(x, c1);
            c2 = FloatVector.fromMemorySegment(S, packed, pb + 2 * VECTOR_BYTES, ORDER).fma(x, c2);
            c3 = FloatVector.fromMemorySegment(S, packed, pb + 3 * VECTOR_BYTES, ORDER).fma(x, c3);
        }
        c0.intoArray(out, o); c1.intoArray(out, o + L); c2.intoArray(out, o + 2 * L); c3.intoArray(out, o + 3 * L);
        if (!direct) copyTile(tile, tileAt, NR, 1, c, cOff, op.n(), valid, accumulate);
    }

    /** C[8 rows, 1 vector] (+)= A[8 rows, kc] x a one-vector packed panel (N <= L, or the last vector of N). */
    private static void microNarrow(Operands<DenseMatrix> op, MemorySegment packed, int pOff, int kc, int aOff, int cOff,
                                    int valid, boolean accumulate, float[] tile, int tileAt) {
        float[] a = op.a().values();
        int lda = op.a().cols();
        float[] c = op.c();
        int n = op.n();
        boolean direct = valid == L;
        float[] out = direct ? c : tile;
        int stride = direct ? n : L;
        int o = direct ? cOff : tileAt;
        boolean fromC = direct && accumulate;
        FloatVector z = FloatVector.zero(S);
        FloatVector c0 = fromC ? FloatVector.fromArray(S, c, o) : z, c1 = fromC ? FloatVector.fromArray(S, c, o + stride) : z;
        FloatVector c2 = fromC ? FloatVector.fromArray(S, c, o + 2 * stride) : z, c3 = fromC ? FloatVector.fromArray(S, c, o + 3 * stride) : z;
        FloatVector c4 = fromC ? FloatVector.fromArray(S, c, o + 4 * stride) : z, c5 = fromC ? FloatVector.fromArray(S, c, o + 5 * stride) : z;
        FloatVector c6 = fromC ? FloatVector.fromArray(S, c, o + 6 * stride) : z, c7 = fromC ? FloatVector.fromArray(S, c, o + 7 * stride) : z;
        for (int kk = 0; kk < kc; kk++) {
            FloatVector bv = FloatVector.fromMemorySegment(S, packed, (long) pOff * Float.BYTES + kk * VECTOR_BYTES, ORDER);
            int x = aOff + kk;
            c0 = bv.fma(FloatVector.broadcast(S, a[x]), c0);
            c1 = bv.fma(FloatVector.broadcast(S, a[x + lda]), c1);
            c2 = bv.fma(FloatVector.broadcast(S, a[x + 2 * lda]), c2);
            c3 = bv.fma(FloatVector.broadcast(S, a[x + 3 * lda]), c3);
            c4 = bv.fma(FloatVector.broadcast(S, a[x + 4 * lda]), c4);
            c5 = bv.fma(FloatVector.broadcast(S, a[x + 5 * lda]), c5);
            c6 = bv.fma(FloatVector.broadcast(S, a[x + 6 * lda]), c6);
            c7 = bv.fma(FloatVector.broadcast(S, a[x + 7 * lda]), c7);
        }
        c0.intoArray(out, o); c1.intoArray(out, o + stride); c2.intoArray(out, o + 2 * stride); c3.intoArray(out, o + 3 * stride);
        c4.intoArray(out, o + 4 * stride); c5.intoArray(out, o + 5 * stride); c6.intoArray(out, o + 6 * stride); c7.intoArray(out, o + 7 * stride);
        if (!direct) copyTile(tile, tileAt, L, MR_NARROW, c, cOff, n, valid, accumulate);
    }

    /** The one-row narrow micro-kernel for the rows past the last multiple of MR_NARROW. */
    private static void microNarrow1(Operands<DenseMatrix> op, MemorySegment packed, int pOff, int kc, int aOff, int cOff,
                                     int valid, boolean accumulate, float[] tile, int tileAt) {
        float[] a = op.a().values();
        float[] c = op.c();
        boolean direct = valid == L;
        FloatVector c0 = direct && accumulate ? FloatVector.fromArray(S, c, cOff) : FloatVector.zero(S);
        for (int kk = 0; kk < kc; kk++) {
            c0 = FloatVector.fromMemorySegment(S, packed, (long) pOff * Float.BYTES + kk * VECTOR_BYTES, ORDER).fma(FloatVector.broadcast(S, a[aOff + kk]), c0);
        }
        c0.intoArray(direct ? c : tile, direct ? cOff : tileAt);
        if (!direct) copyTile(tile, tileAt, L, 1, c, cOff, op.n(), valid, accumulate);
    }

    /** Copies (or adds) the first {@code valid} columns of {@code rows} tile rows of {@code nr} into C. */
    private static void copyTile(float[] scratch, int tileAt, int nr, int rows, float[] c, int cOff, int n, int valid, boolean accumulate) {
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < valid; j++) {
                float v = scratch[tileAt + r * nr + j];
                c[cOff + r * n + j] = accumulate ? c[cOff + r * n + j] + v : v;
            }
        }
    }

    /** One micro-kernel call of the traced twin: rows {@code row..row+rows) times a packed panel. */
    private record Tile(int row, int rows, int pOff, int kc, int k0, int cCol, int valid, boolean accumulate, int nr) {}

    private static void traceMicro(Operands<DenseMatrix> op, Tile t, Workspace ws, Tracer tracer) {
        float[] a = op.a().values();
        float[] packed = ws.scratch();
        float[] c = op.c();
        int lda = op.a().cols();
        int n = op.n();
        int acc = ws.scratch().length - TILE_FLOATS;
        int nr = t.nr();
        // a whole panel's later K block starts from C, as the fast path's accumulators do; a partial one adds after
        boolean fromC = t.accumulate() && t.valid() == nr;
        for (int r = 0; r < t.rows(); r++) {
            int cOff = (t.row() + r) * n + t.cCol();
            for (int v = 0; fromC && v < nr; v += L) tracer.readFloats(ArrayRole.C_SCATTER, cOff + v, L);
            for (int j = 0; j < nr; j++) packed[acc + r * nr + j] = fromC ? c[cOff + j] : 0f;
        }
        for (int kk = 0; kk < t.kc(); kk++) {
            int pb = t.pOff() + kk * nr;
            for (int v = 0; v < nr; v += L) tracer.readScratch(ArrayRole.B_GATHER, pb + v, L);
            for (int r = 0; r < t.rows(); r++) {
                int aIndex = (t.row() + r) * lda + t.k0() + kk;
                tracer.readFloats(ArrayRole.DENSE_A, aIndex, 1);
                float x = a[aIndex];
                for (int j = 0; j < nr; j++) packed[acc + r * nr + j] = Math.fma(packed[pb + j], x, packed[acc + r * nr + j]);
            }
        }
        for (int r = 0; r < t.rows(); r++) {
            int cOff = (t.row() + r) * n + t.cCol();
            for (int v = 0; v < t.valid(); v += L) {
                int lanes = Math.min(L, t.valid() - v);
                if (t.accumulate() && !fromC) tracer.readFloats(ArrayRole.C_SCATTER, cOff + v, lanes);
                tracer.writeFloats(ArrayRole.C_SCATTER, cOff + v, lanes);
            }
            for (int j = 0; j < t.valid(); j++) {
                float value = packed[acc + r * nr + j];
                c[cOff + j] = t.accumulate() && !fromC ? c[cOff + j] + value : value;
            }
        }
    }
}
