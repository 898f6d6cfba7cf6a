package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.kernel.CsrSpmm;
import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.Lengths;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.SparseprofException;

/**
 * The loop counts of each CPU kernel of the {@code kernel} package at {@code lanes} fp32 lanes per
 * vector, read from the kernels' loop nests (kept in step with them by hand; the head comment of
 * each kernel class says what its inner loops execute per vector):
 * <ul>
 * <li>at N = 1, csr, coo and N:M run one gather dot per row, row run or row of slots
 *     ({@link #oneColumn}: whole vectors, scalar tail entries and rows from the real row lengths,
 *     plus coo's run search and N:M's decode), where the spec carries the probe's rates for that
 *     body ({@code hw.OneColumnRates}; older probes measured the broadcast body, which ran at N = 1
 *     then, and the counts below stand);
 * <li>{@code csr} ({@code CsrSpmm} over {@code BroadcastRows}): when N is exactly one vector, or
 *     two, all rows run in one tight loop ({@code oneVectorRows}, 4 accumulators in turn;
 *     {@code twoVectorRows}, two entries per trip into two pairs of accumulators), counted per entry at the one- or 2-vector
 *     rate and per row at the tight loops' row rate; any other N is cut into column blocks as
 *     {@code ColumnBlocks} cuts it (8-vector blocks while they fit, then one 4-, 2- and 1-vector
 *     block, then a masked partial vector, run as a one-vector block), each row and block
 *     dispatched on its own: per entry of a block, a value broadcast, a column-index load and per
 *     vector a B load and an FMA, at the rate the probe measured for that block width; per row
 *     and block, the dispatch and the C stores. When B is larger than half of L2
 *     ({@code CsrSpmm.passColumns} on the spec's L2: {@link #csrBody}), N runs in column passes of
 *     two vectors (one where a two-vector panel does not fit either): each pass counts every entry
 *     and row at the tight loop's rate of its width, the columns past the last whole pass one more
 *     row body in blocks (the packing of each pass's panel, K x pass floats, is not counted);
 * <li>{@code coo} ({@code CooSpmm}, row runs): a vector compare per lane group of row indices to
 *     find each row's run (counted per triple and per row), then the CSR body over the runs, with
 *     csr's tight loops when N is one vector or two (no column passes);
 * <li>{@code N:M} ({@code NmSpmm}): every kept slot of a row (zeros of short groups included) is
 *     decoded once per row (per slot and per row), then the CSR body runs over the slots;
 * <li>{@code bsrRxC} ({@code BsrSpmm} over {@code BlockRowTiles}): per stored block, tile of 4 rows
 *     and strip of N (wide strips of 4 vectors at 512 bits, 2 at 256, while they fit; then
 *     1-vector strips, then a masked one), the block's C columns each load a B strip and FMA it
 *     with 4 broadcast values; per tile and strip the C stores and the strip's set-up;
 * <li>{@code dense} ({@code DenseGemm}): at N = 1 the matrix-vector product ({@link #gemv}, where the
 *     spec carries its probed rates; else the one-vector micro-kernel older probes measured, one
 *     vector FMA per row and element of K); else the vector FMAs of the padded panels ({@link #densePaddedColumns}:
 *     whole panels of the register tile's vectors, then two-vector panels while more than one
 *     vector is left, then a one-vector panel), in the 4 x 4- or 6 x 2-vector micro-kernels, and
 *     in the 8 x 1-vector one for the one-vector panel (all of N when N fits one vector).
 * </ul>
 */
public final class LoopNests {
    /** Vectors of {@code ColumnBlocks}' widest block. */
    static final int MAX_BLOCK_VECTORS = 8;

    /** Vectors of {@code BlockRowTiles}' wide strip: 4 on 32 vector registers (512 bits), 2 on 16 (AVX2). */
    public static int bsrWideVectors(int lanes) {
        return lanes >= 16 ? 4 : 2;
    }
    static final int BSR_TILE_ROWS = 4;

    private LoopNests() {}

    /** Vectors of {@code DenseTiling}'s wide register tile (its panel): 4 on 32 registers (512 bits), 2 on 16. */
    public static int denseWideVectors(int lanes) {
        return lanes >= 16 ? 4 : 2;
    }

    /**
     * The B columns {@code DenseGemm} packs and multiplies for N = {@code n}: whole panels of
     * {@link #denseWideVectors} vectors, then two-vector panels while more than one vector is left,
     * then one one-vector panel; the last panel's zero columns are multiplied too.
     */
    public static long densePaddedColumns(long n, int lanes) {
        return denseColumns(n, lanes, false);
    }

    /** The columns of {@link #densePaddedColumns} in one-vector panels (the 8 x 1 micro-kernel). */
    static long denseNarrowColumns(long n, int lanes) {
        return denseColumns(n, lanes, true);
    }

    private static long denseColumns(long n, int lanes, boolean narrowOnly) {
        if (n == 1) return narrowOnly ? 0 : 1; // the matrix-vector product (kernel.DenseGemv): no panels
        long panel = (long) denseWideVectors(lanes) * lanes;
        long whole = n / panel * panel;
        long columns = narrowOnly ? 0 : whole;
        for (long left = n - whole; left > 0; ) {
            long width = left > lanes ? 2L * lanes : lanes;
            if (!narrowOnly || width == lanes) columns += width;
            left -= Math.min(width, left);
        }
        return columns;
    }

    /** {@link #of(String, int, int, long, long, BlockDensity, double, int, long)} with an L2 that holds any B (csr: no column passes). */
    public static LoopCounts of(String format, int rows, int cols, long n, long nnz, BlockDensity blocks, double executedFlops, int lanes) {
        return of(format, rows, cols, n, nnz, blocks, executedFlops, lanes, Long.MAX_VALUE);
    }

    /**
     * The counts of {@code format}'s kernel; {@code executedFlops}: the dense plan's (padded) FLOPs;
     * {@code l2Bytes}: one core's L2, which sizes csr's column passes.
     */
    public static LoopCounts of(String format, int rows, int cols, long n, long nnz, BlockDensity blocks, double executedFlops, int lanes,
                                long l2Bytes) {
        if (format.equals("dense") && n == 1) {
            // a probe without the matrix-vector product's rates measured the one-vector micro-kernel the
            // kernel ran at N = 1 before: one vector FMA per row and element of K
            return LoopCounts.of(LoopBody.DENSE_NARROW_FMA, (double) rows * cols);
        }
        if (format.equals("dense")) {
            double fmas = executedFlops / (2.0 * lanes);
            double narrowShare = (double) denseNarrowColumns(n, lanes) / densePaddedColumns(n, lanes);
            return LoopCounts.of(LoopBody.DENSE_FMA, fmas * (1 - narrowShare)).and(LoopBody.DENSE_NARROW_FMA, fmas * narrowShare);
        }
        if (format.equals("csr")) return csrBody(rows, cols, nnz, n, lanes, l2Bytes);
        if (format.equals("coo")) return rowBody(rows, nnz, n, lanes, true).plus(runSearch(nnz, rows));
        if (format.startsWith("bsr")) {
            if (blocks == null) throw new SparseprofException(format + ": no block counts for this layer");
            return bsr(BlockShape.parse(format.substring(3)), rows, blocks.nonEmptyBlocks(), n, lanes);
        }
        if (format.contains(":")) {
            NmPattern p = NmPattern.parse(format);
            double slots = (double) rows * (cols / p.m()) * p.n();
            return rowBody(rows, slots, n, lanes, false).plus(decode(slots, rows));
        }
        throw new SparseprofException("no CPU loop nest for format '" + format + "'");
    }

    /**
     * The counts of {@code format}'s kernel at N = 1 where the kernel runs the gather dot there
     * ({@link #gathersAtOneColumn}): csr over its rows, coo over its row runs (plus the run search),
     * N:M over every row's kept slots (plus the decode).
     */
    public static LoopCounts oneColumn(String format, Lengths rowLengths, int cols, int lanes) {
        if (format.equals("csr")) return spmv(rowLengths, lanes);
        long nnz = rowLengths.sum();
        int rows = rowLengths.count();
        if (format.equals("coo")) return spmv(rowLengths, lanes).plus(runSearch(nnz, rows));
        NmPattern p = NmPattern.parse(format);
        int slots = cols / p.m() * p.n(); // every row holds as many
        return LoopCounts.of(LoopBody.SPMV_VECTOR, (double) rows * (slots / lanes)).and(LoopBody.SPMV_ROW, rows)
                .and(LoopBody.SPMV_TAIL, (double) rows * (slots % lanes)).plus(decode((double) rows * slots, rows));
    }

    /**
     * The dense matrix-vector product at N = 1 ({@code kernel.DenseGemv}): per row {@code cols / lanes}
     * vector FMAs and the row's reduction and store ({@code cols mod lanes} scalar FMAs of a K that is not a
     * whole number of vectors are not counted: none at the K of the layers seen, 384 to 11008).
     */
    public static LoopCounts gemv(int rows, int cols, int lanes) {
        return LoopCounts.of(LoopBody.GEMV_FMA, (double) rows * (cols / lanes)).and(LoopBody.GEMV_ROW, rows);
    }

    /**
     * SELL-C-sigma's loops ({@code kernel.SellSpmm}): per column of B, every slot vector of every
     * chunk ({@code slots / C}: padding slots are multiplied too) and every chunk's stores. The
     * transpose of B before them is a per-thread phase of its own ({@code EcmModel#bCopySeconds}).
     */
    public static LoopCounts sell(long slots, int rows, int chunkHeight, long n) {
        double chunks = Math.ceil((double) rows / chunkHeight);
        return LoopCounts.of(LoopBody.SELL_SLOT, (double) slots / chunkHeight * n).and(LoopBody.SELL_CHUNK, chunks * n);
    }

    /** Whether {@code format}'s kernel runs the gather dot at N = 1: csr, coo and N:M ({@code kernel.GatherRows}). */
    public static boolean gathersAtOneColumn(String format) {
        return format.equals("csr") || format.equals("coo") || format.contains(":");
    }

    /**
     * csr's one-column body at N = 1 ({@code kernel.GatherRows}): per row of length {@code len},
     * {@code len / lanes} whole vectors (a gather each) and {@code len mod lanes} scalar tail
     * entries, and the row's reduction and store.
     */
    public static LoopCounts spmv(Lengths rowLengths, int lanes) {
        double vectors = 0;
        double tails = 0;
        int rows = rowLengths.count();
        for (int i = 0; i < rows; i++) {
            int len = rowLengths.get(i);
            vectors += len / lanes;
            tails += len % lanes;
        }
        return LoopCounts.of(LoopBody.SPMV_VECTOR, vectors).and(LoopBody.SPMV_ROW, rows).and(LoopBody.SPMV_TAIL, tails);
    }

    /**
     * csr's loops ({@code CsrSpmm}): one row body over all N while B fits its share of L2, else one
     * tight row body per whole column pass and a row body in blocks over the columns left.
     */
    static LoopCounts csrBody(int rows, int cols, double entries, long n, int lanes, long l2Bytes) {
        int pass = CsrSpmm.passColumns(cols, (int) n, lanes, l2Bytes);
        if (pass >= n) return rowBody(rows, entries, n, lanes, true);
        LoopCounts counts = LoopCounts.ZERO;
        long whole = n / pass;
        for (long p = 0; p < whole; p++) counts = counts.plus(rowBody(rows, entries, pass, lanes, true));
        long rest = n - whole * pass;
        return rest > 0 ? counts.plus(rowBody(rows, entries, rest, lanes, false)) : counts;
    }

    /**
     * The broadcast-and-FMA row body over {@code entries} entries of {@code rows} rows;
     * {@code tightLoops}: whether the kernel runs all rows in one tight loop when N is exactly one
     * or two vectors ({@code BroadcastRows.oneVectorRows}, {@code twoVectorRows}: csr and coo do,
     * N:M and csr's columns past its last pass do not).
     */
    static LoopCounts rowBody(int rows, double entries, long n, int lanes, boolean tightLoops) {
        if (n == lanes && tightLoops) return LoopCounts.of(LoopBody.ONE_VECTOR_ENTRY, entries).and(LoopBody.WHOLE_ROW, rows);
        if (n == 2L * lanes && tightLoops) return LoopCounts.of(LoopBody.BLOCK2_ENTRY, entries).and(LoopBody.WHOLE_ROW, rows);
        double[] byWidth = new double[MAX_BLOCK_VECTORS + 1]; // blocks of 8, 4, 2, 1 vectors (0: the masked tail)
        double blocks = 0;
        for (long left = n; left > 0; ) {
            long whole = left / lanes;
            int v = whole >= MAX_BLOCK_VECTORS ? MAX_BLOCK_VECTORS : (int) Long.highestOneBit(whole);
            byWidth[v]++;
            blocks++;
            left -= v == 0 ? left : (long) v * lanes;
        }
        return LoopCounts.of(LoopBody.BLOCK8_ENTRY, entries * byWidth[8]).and(LoopBody.BLOCK4_ENTRY, entries * byWidth[4])
                .and(LoopBody.SPLIT2_ENTRY, entries * byWidth[2]).and(LoopBody.SPLIT1_ENTRY, entries * (byWidth[1] + byWidth[0]))
                .and(LoopBody.ROW_BLOCK, rows * blocks);
    }

    /** coo's run search: a vector compare per lane group of row indices, counted per triple and per row run. */
    static LoopCounts runSearch(double entries, double rows) {
        return LoopCounts.of(LoopBody.COO_ENTRY, entries).and(LoopBody.COO_ROW, rows);
    }

    /** N:M's decode of every kept slot, once per row. */
    static LoopCounts decode(double slots, double rows) {
        return LoopCounts.of(LoopBody.NM_SLOT, slots).and(LoopBody.NM_ROW, rows);
    }

    static LoopCounts bsr(BlockShape shape, int rows, long blocks, long n, int lanes) {
        double wide = 0;
        double narrow = 0;
        long strip = (long) bsrWideVectors(lanes) * lanes;
        for (long left = n; left > 0; ) {
            if (left >= strip) {
                wide++;
                left -= strip;
            } else {
                narrow++;
                left -= Math.min(left, lanes);
            }
        }
        double tiles = Math.ceil(shape.rows() / (double) BSR_TILE_ROWS);
        double columns = shape.cols() / 4.0; // the rates are probed on 4-column blocks
        double perBlock = tiles * columns;
        return LoopCounts.of(LoopBody.BSR_WIDE, blocks * perBlock * wide).and(LoopBody.BSR_NARROW, blocks * perBlock * narrow)
                .and(LoopBody.BSR_TILE, (double) shape.blockRowsOf(rows) * tiles * (wide + narrow));
    }
}
