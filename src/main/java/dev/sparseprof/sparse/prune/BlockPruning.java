package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.Checks;
import java.util.Arrays;

/**
 * Structured pruning by L2 norm: RxC tiles of A (partial edge tiles over their real elements), or
 * whole rows, which are tiles of {@code 1 x cols}. Exactly {@code count - floor(S*count)} tiles
 * survive whole (ties to the lower tile index, row-major over tiles); the others become zeros.
 */
final class BlockPruning {
    private BlockPruning() {}

    static void applyRows(LayerWeights layer, double sparsity) {
        apply(layer, new BlockShape(1, Math.max(1, layer.cols())), sparsity);
    }

    static void apply(LayerWeights layer, BlockShape shape, double sparsity) {
        float[] a = layer.values();
        int rows = layer.rows();
        int cols = layer.cols();
        int blockRows = shape.blockRowsOf(rows);
        int blockCols = shape.blockColsOf(cols);
        int blocks = Checks.toIntExact((long) blockRows * blockCols, "blocks of layer '" + layer.name() + "'");
        double[] squares = new double[blocks];
        for (int r = 0; r < rows; r++) {
            int base = (r / shape.rows()) * blockCols;
            for (int b = 0; b < blockCols; b++) {
                int from = r * cols + b * shape.cols();
                int to = r * cols + Math.min(cols, (b + 1) * shape.cols());
                double sum = 0.0;
                for (int i = from; i < to; i++) sum += (double) a[i] * a[i];
                squares[base + b] += sum;
            }
        }
        boolean[] kept = Ranking.keepTop(squares, (int) (blocks - Ranking.prunedCount(sparsity, blocks)));
        for (int r = 0; r < rows; r++) {
            int base = (r / shape.rows()) * blockCols;
            for (int b = 0; b < blockCols; b++) {
                if (kept[base + b]) continue;
                Arrays.fill(a, r * cols + b * shape.cols(), r * cols + Math.min(cols, (b + 1) * shape.cols()), 0.0f);
            }
        }
    }
}
