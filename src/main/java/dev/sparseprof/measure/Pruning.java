package dev.sparseprof.measure;

import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.MatrixView;
import java.util.List;

/** In-memory pruning of one matrix (magnitude or N:M), so that a dense model can be measured sparse. */
public final class Pruning {
    private Pruning() {}

    /** A copy of {@code matrix} pruned to N:M along its rows (each group of M keeps its N largest |w|). */
    public static MatrixView nm(String name, MatrixView matrix, NmPattern pattern) {
        float[] values = matrix.toDense();
        Pruner.apply(new PruneSpec.Nm(pattern), List.of(new LayerWeights(name, matrix.rows(), matrix.cols(), values)));
        return MatrixView.of(matrix.rows(), matrix.cols(), values);
    }

    /** A copy of {@code matrix} with the smallest-magnitude {@code sparsity} of its entries set to zero. */
    public static MatrixView magnitude(String name, MatrixView matrix, double sparsity) {
        float[] values = matrix.toDense();
        Pruner.apply(new PruneSpec.Magnitude(sparsity, PruneScope.LAYER), List.of(new LayerWeights(name, matrix.rows(), matrix.cols(), values)));
        return MatrixView.of(matrix.rows(), matrix.cols(), values);
    }
}
