package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.Checks;
import java.io.IOException;

/**
 * Block (and row) pruning on stored bits: one pass sums each RxC tile's squares, decoding each
 * weight to float and squaring in double as {@link BlockPruning} does (so the ranking is the same),
 * then {@link Ranking#keepTop} picks exactly {@code blocks - floor(S*blocks)} tiles, and a second
 * pass writes the dropped tiles as +0 (a weight stored as -0 keeps its bits). Chunks hold whole
 * tile rows. The heap holds one double per tile.
 */
final class StoredBlocks {
    private StoredBlocks() {}

    static PruneResult prune(StoredLayer layer, BlockShape shape, double sparsity, StoredChunks chunks, StoredPruner.Sink sink) throws IOException {
        int cols = layer.cols();
        int blockCols = shape.blockColsOf(cols);
        int blocks = Checks.toIntExact((long) shape.blockRowsOf(layer.rows()) * blockCols, "blocks of layer '" + layer.name() + "'");
        double[] squares = new double[blocks];
        long before = 0;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            int first = chunks.firstRow(c);
            for (int r = 0; r < len / cols; r++) {
                int base = ((first + r) / shape.rows()) * blockCols;
                int at = r * cols;
                for (int b = 0; b < blockCols; b++) {
                    int to = at + Math.min(cols, (b + 1) * shape.cols());
                    double sum = 0.0;
                    for (int i = at + b * shape.cols(); i < to; i++) {
                        float v = value(chunks, layer.width(), i);
                        sum += (double) v * v;
                    }
                    squares[base + b] += sum;
                }
                for (int i = at; i < at + cols; i++) before += (-key(chunks, i)) >>> 31;
            }
        }
        boolean[] kept = Ranking.keepTop(squares, (int) (blocks - Ranking.prunedCount(sparsity, blocks)));
        long after = 0;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            int first = chunks.firstRow(c);
            for (int r = 0; r < len / cols; r++) {
                int base = ((first + r) / shape.rows()) * blockCols;
                int at = r * cols;
                for (int b = 0; b < blockCols; b++) {
                    int from = at + b * shape.cols();
                    int to = at + Math.min(cols, (b + 1) * shape.cols());
                    if (kept[base + b]) {
                        for (int i = from; i < to; i++) after += (-key(chunks, i)) >>> 31;
                    } else {
                        for (int i = from; i < to; i++) {
                            if (chunks.halves != null) chunks.halves[i] = key(chunks, i) == 0 ? chunks.halves[i] : 0;
                            else chunks.singles[i] = key(chunks, i) == 0 ? chunks.singles[i] : 0;
                        }
                    }
                }
            }
            chunks.store(c, len, sink);
        }
        return new PruneResult(layer.name(), layer.elements(), before, after);
    }

    private static int key(StoredChunks chunks, int i) {
        return chunks.halves != null ? chunks.halves[i] & 0x7fff : chunks.singles[i] & 0x7fffffff;
    }

    private static float value(StoredChunks chunks, StoredLayer.Width width, int i) {
        return switch (width) {
            case F16 -> Float.float16ToFloat(chunks.halves[i]);
            case BF16 -> Float.intBitsToFloat((chunks.halves[i] & 0xffff) << 16);
            case F32 -> Float.intBitsToFloat(chunks.singles[i]);
        };
    }
}
