package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.SparseprofException;

/**
 * The loop counts of each CPU kernel of the {@code kernel} package at {@code lanes} fp32 lanes per
 * vector, read from the kernels' loop nests (kept in step with them by hand; the head comment of
 * each kernel class says what its inner loops execute per vector):
 * <ul>
 * <li>{@code csr} ({@code CsrSpmm} over {@code BroadcastRows}): N is cut into column blocks as
 *     {@code ColumnBlocks} cuts it (8-vector blocks while they fit, then one 4-, 2- and 1-vector
 *     block, then a masked partial vector); per block, each entry broadcasts its value, reads its
 *     column index and issues one load + FMA per vector; each row clears and stores the block; a
 *     one-vector block (and the masked tail) runs its entries into 4 accumulators in turn, at its
 *     own probed rate per entry;
 * <li>{@code coo} ({@code CooSpmm}, row runs): a vector compare per lane group of row indices to
 *     find each row's run (counted per triple and per row), then the CSR body;
 * <li>{@code N:M} ({@code NmSpmm}): every kept slot of a row (zeros of short groups included) is
 *     decoded once per row, then the CSR body runs over the slots;
 * <li>{@code bsrRxC} ({@code BsrSpmm} over {@code BlockRowTiles}): per stored block, tile of 4 rows
 *     and strip of N (wide strips of 4 vectors at 512 bits, 2 at 256, while they fit; then
 *     1-vector strips, then a masked one), the block's C columns each load a B strip and FMA it
 *     with 4 broadcast values;
 * <li>{@code dense} ({@code DenseGemm}): the vector FMAs of the padded panels ({@link #densePaddedColumns}:
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

    /** The counts of {@code format}'s kernel; {@code executedFlops}: the dense plan's (padded) FLOPs. */
    public static LoopCounts of(String format, int rows, int cols, long n, long nnz, BlockDensity blocks, double executedFlops, int lanes) {
        if (format.equals("dense")) {
            double fmas = executedFlops / (2.0 * lanes);
            double narrowShare = (double) denseNarrowColumns(n, lanes) / densePaddedColumns(n, lanes);
            return new LoopCounts(fmas * (1 - narrowShare), fmas * narrowShare, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        }
        if (format.equals("csr")) return rowBody(rows, nnz, n, lanes);
        if (format.equals("coo")) return rowBody(rows, nnz, n, lanes).plus(new LoopCounts(0, 0, 0, 0, 0, 0, nnz, rows, 0, 0, 0));
        if (format.startsWith("bsr")) {
            if (blocks == null) throw new SparseprofException(format + ": no block counts for this layer");
            return bsr(BlockShape.parse(format.substring(3)), rows, blocks.nonEmptyBlocks(), n, lanes);
        }
        if (format.contains(":")) {
            NmPattern p = NmPattern.parse(format);
            double slots = (double) rows * (cols / p.m()) * p.n();
            return rowBody(rows, slots, n, lanes).plus(new LoopCounts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, slots));
        }
        throw new SparseprofException("no CPU loop nest for format '" + format + "'");
    }

    /** The broadcast-and-FMA row body over {@code entries} entries of {@code rows} rows. */
    static LoopCounts rowBody(int rows, double entries, long n, int lanes) {
        double blocks = 0;
        double vectors = 0;
        double oneVector = 0;
        for (long left = n; left > 0; ) {
            long whole = left / lanes;
            long v = whole >= MAX_BLOCK_VECTORS ? MAX_BLOCK_VECTORS : Long.highestOneBit(whole);
            long width = v == 0 ? left : v * lanes;
            if (v <= 1) oneVector++; // one vector, or the masked tail: 4 accumulators in turn
            else {
                blocks++;
                vectors += v;
            }
            left -= width;
        }
        return new LoopCounts(0, 0, entries * blocks, entries * vectors, rows * (blocks + oneVector), entries * oneVector, 0, 0, 0, 0, 0);
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
        return new LoopCounts(0, 0, 0, 0, (double) shape.blockRowsOf(rows) * tiles * (wide + narrow), 0, 0, 0,
                blocks * perBlock * wide, blocks * perBlock * narrow, 0);
    }
}
