package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one statistics scan measures besides the counts it always takes (nnz, row lengths).
 *
 * @param patterns N:M patterns whose compliance is counted
 * @param blocks tile shapes whose block density is counted (BSR of these shapes can then be sized
 *     from the statistics alone)
 * @param columnCounts whether to count non-zeros per column (one int per column of memory)
 * @param threads worker threads for the row scan; 1 scans on the calling thread
 */
public record ScanOptions(List<NmPattern> patterns, List<BlockShape> blocks, boolean columnCounts, int threads) {
    /** 2:4, 1:2, 4:8; blocks 4x4, 8x8, 16x16; column counts; one thread. */
    public static final ScanOptions DEFAULT = new ScanOptions(
            List.of(NmPattern.TWO_FOUR, NmPattern.ONE_TWO, NmPattern.FOUR_EIGHT),
            List.of(BlockShape.B4X4, BlockShape.B8X8, BlockShape.B16X16), true, 1);

    public ScanOptions {
        patterns = List.copyOf(patterns);
        blocks = List.copyOf(blocks);
        if (threads < 1) throw new SparseprofException("scan threads must be positive, got " + threads);
        if (patterns.stream().distinct().count() != patterns.size()) throw new SparseprofException("scan options: repeated N:M pattern");
        if (blocks.stream().distinct().count() != blocks.size()) throw new SparseprofException("scan options: repeated block shape");
    }

    public ScanOptions withThreads(int count) {
        return new ScanOptions(patterns, blocks, columnCounts, count);
    }

    /** These options plus {@code extra} block shapes not already present. */
    public ScanOptions withBlocks(List<BlockShape> extra) {
        List<BlockShape> all = new ArrayList<>(blocks);
        for (BlockShape b : extra) if (!all.contains(b)) all.add(b);
        return new ScanOptions(patterns, all, columnCounts, threads);
    }
}
