package dev.sparseprof.sparse.stats;

import java.util.Arrays;

/**
 * Counts the non-empty {@code R x C} tiles of a matrix fed row by row. Each row's bitmap is OR-ed
 * into the band's bitmap (one OR per 64 columns, a loop the JIT vectorizes); at the end of each band
 * of R rows (or at the last row) the band's bitmap is folded to one bit per column block, once per
 * band rather than once per row, and the band's non-empty tiles are counted. For C a power of two up
 * to 64 the fold is a shift-or cascade plus {@link Long#compress}; other widths test each block's bit range.
 * Rows must arrive in order, and a counter must start at a band boundary. Each band's count is kept
 * too (one int per band), so a BSR model needs no second pass over the matrix.
 */
final class BlockCounter {
    private final BlockShape shape;
    private final int rows;
    private final int cols;
    private final int blockCols;
    private final long[] occupancy;
    private final long[] band;
    private final boolean fold;
    private final long fieldStarts;
    private final int[] perBand;
    private long nonEmptyBlocks;
    /** Rows OR-ed into {@link #band} since the last band closed. */
    private int bandRows;
    private long nonEmptyElements;

    BlockCounter(BlockShape shape, int rows, int cols) {
        this.shape = shape;
        this.rows = rows;
        this.cols = cols;
        this.blockCols = shape.blockColsOf(cols);
        this.occupancy = new long[RowBits.wordsFor(blockCols)];
        this.band = new long[RowBits.wordsFor(cols)];
        int c = shape.cols();
        this.fold = c <= 64 && Integer.bitCount(c) == 1;
        long starts = 0;
        if (fold) for (int b = 0; b < 64; b += c) starts |= 1L << b;
        this.fieldStarts = starts;
        this.perBand = new int[shape.blockRowsOf(rows)];
    }

    void addRow(long[] words, int row) {
        long[] b = band;
        for (int w = 0; w < b.length; w++) b[w] |= words[w];
        if (++bandRows == shape.rows() || row == rows - 1) {
            if (fold) foldRow(b); else scanRow(b);
            Arrays.fill(b, 0L);
            closeBand(row / shape.rows(), bandRows);
            bandRows = 0;
        }
    }

    private void foldRow(long[] words) {
        int c = shape.cols();
        int perWord = 64 / c;
        int nWords = RowBits.wordsFor(cols);
        long allBlocks = perWord == 64 ? -1L : (1L << perWord) - 1;
        for (int w = 0; w < nWords; w++) {
            long y = words[w];
            if (y == 0) continue;
            int block = w * perWord;
            if (y == -1L) { // a dense word: every block it covers is occupied (the common case of unpruned layers)
                occupancy[block >>> 6] |= allBlocks << (block & 63);
                continue;
            }
            for (int s = 1; s < c; s <<= 1) y |= y >>> s;
            occupancy[block >>> 6] |= Long.compress(y, fieldStarts) << (block & 63);
        }
    }

    private void scanRow(long[] words) {
        int c = shape.cols();
        for (int b = 0; b < blockCols; b++) {
            int from = b * c;
            if (RowBits.anyBit(words, from, (int) Math.min(cols, (long) from + c))) occupancy[b >>> 6] |= 1L << b;
        }
    }

    private void closeBand(int band, int bandHeight) {
        int k = 0;
        for (long word : occupancy) k += Long.bitCount(word);
        perBand[band] = k;
        if (k > 0) {
            int c = shape.cols();
            int lastBlock = blockCols - 1;
            int lastWidth = cols - lastBlock * c;
            boolean lastSet = ((occupancy[lastBlock >>> 6] >>> lastBlock) & 1L) != 0;
            long width = (long) k * c - (lastSet ? c - lastWidth : 0);
            nonEmptyBlocks += k;
            nonEmptyElements += width * bandHeight;
        }
        Arrays.fill(occupancy, 0L);
    }

    void merge(BlockCounter other) {
        nonEmptyBlocks += other.nonEmptyBlocks;
        nonEmptyElements += other.nonEmptyElements;
        for (int b = 0; b < perBand.length; b++) perBand[b] += other.perBand[b]; // ranges hold disjoint bands
    }

    BlockDensity result(long nnz) {
        long blocks = (long) shape.blockRowsOf(rows) * blockCols;
        return new BlockDensity(shape, blocks, nonEmptyBlocks, nonEmptyElements, nnz, new Lengths(perBand.clone()));
    }
}
