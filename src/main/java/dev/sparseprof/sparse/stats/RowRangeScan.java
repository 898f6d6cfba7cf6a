package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.MatrixView;
import java.util.ArrayList;
import java.util.List;

/**
 * The statistics of some rows of one matrix, scanned on one thread with its own scratch (a row
 * buffer, its bitmap, column counters). A row's bitmap comes from the view's stored bits when it
 * has them ({@link MatrixView#nonZeroBits}), else from a float copy of the row. One part may scan
 * several row ranges, in ascending order, each starting at a multiple of every block height; its
 * counters stay open between them until {@link #finish}. Finished parts of one matrix merge by
 * addition, in any order.
 */
final class RowRangeScan {
    private final int cols;
    private final int[] rowLengths;
    private final int[] columnCounts;
    private final NmCounters nm;
    private final BlockCounter[] blocks;
    private final long[] words;
    /** Column counts from bitmaps (null without column counts), added into {@link #columnCounts} at {@link #finish}. */
    private final ColumnCounter fromBits;
    private float[] row;
    private long nnz;
    private long rowsAdded;

    /** {@code rowLengths} is shared by all ranges; each writes only its own rows. */
    RowRangeScan(int rows, int cols, int[] rowLengths, ScanOptions options) {
        this.cols = cols;
        this.rowLengths = rowLengths;
        this.columnCounts = options.columnCounts() ? new int[cols] : null;
        this.nm = new NmCounters(options.patterns());
        this.blocks = new BlockCounter[options.blocks().size()];
        for (int i = 0; i < blocks.length; i++) blocks[i] = new BlockCounter(options.blocks().get(i), rows, cols);
        this.words = new long[RowBits.wordsFor(cols)];
        this.fromBits = columnCounts == null ? null : new ColumnCounter(cols, columnCounts);
    }

    /** Adds rows {@code [fromRow, toRow)}; {@code fromRow} is past every row added before. */
    void scan(MatrixView matrix, int fromRow, int toRow, ProgressCounter progress) {
        long[] words = this.words;
        ColumnCounter fromBits = this.fromBits;
        rowsAdded += toRow - fromRow;
        int pending = 0;
        for (int r = fromRow; r < toRow; r++) {
            int length = matrix.nonZeroBits(r, words);
            if (length >= 0) {
                if (fromBits != null) fromBits.addRow(words);
            } else {
                if (row == null) row = new float[cols];
                matrix.copyRow(r, row, 0);
                length = RowBits.fill(row, cols, words, columnCounts);
            }
            rowLengths[r] = length;
            nnz += length;
            nm.addRow(words, cols);
            for (BlockCounter counter : blocks) counter.addRow(words, r);
            if (++pending == ProgressCounter.BATCH) {
                progress.rowsDone(pending);
                pending = 0;
            }
        }
        progress.rowsDone(pending);
    }

    /** Rows added by {@link #scan}, this part's own (not those merged into it). */
    long rowsAdded() {
        return rowsAdded;
    }

    /** Closes the counters; call once, after the last range and before {@link #merge} or {@link #result}. */
    void finish() {
        nm.flush();
        if (fromBits != null) fromBits.flush();
    }

    /** Adds {@code other}, a finished part of the same matrix, to this finished one. */
    void merge(RowRangeScan other) {
        nnz += other.nnz;
        if (columnCounts != null) for (int c = 0; c < cols; c++) columnCounts[c] += other.columnCounts[c];
        nm.merge(other.nm);
        for (int i = 0; i < blocks.length; i++) blocks[i].merge(other.blocks[i]);
    }

    MatrixStats result(int rows) {
        List<NmCompliance> nmResults = new ArrayList<>(nm.size());
        for (int i = 0; i < nm.size(); i++) nmResults.add(nm.result(i));
        List<BlockDensity> blockResults = new ArrayList<>(blocks.length);
        for (BlockCounter counter : blocks) blockResults.add(counter.result(nnz));
        return new MatrixStats(rows, cols, nnz, new Lengths(rowLengths),
                columnCounts == null ? null : new Lengths(columnCounts), nmResults, blockResults);
    }
}
