package dev.sparseprof.sparse.prune;

import java.util.ArrayList;
import java.util.List;

/**
 * Applies a {@link PruneSpec} to layers' weights in place and reports what it did. Every method is
 * deterministic: the same weights and spec give the same zeros, whatever the thread or machine.
 *
 * <ul>
 *   <li>magnitude, per layer: each layer of n weights keeps exactly {@code n - floor(S*n)}, the
 *       largest |w| (ties to the lower index);</li>
 *   <li>magnitude, global: all layers ranked together, {@code N - floor(S*N)} kept of the N weights
 *       of all layers (ties to the earlier layer, then the lower index);</li>
 *   <li>N:M: each group of M consecutive weights of a row keeps its N largest |w| (ties to the lower
 *       index; a partial last group keeps min(N, width));</li>
 *   <li>block RxC: tiles (partial edge tiles included) ranked by L2 norm, exactly
 *       {@code blocks - floor(S*blocks)} kept whole, the others zeroed whole;</li>
 *   <li>rows: rows ranked by L2 norm, {@code rows - floor(S*rows)} kept.</li>
 * </ul>
 */
public final class Pruner {
    private Pruner() {}

    public static List<PruneResult> apply(PruneSpec spec, List<LayerWeights> layers) {
        long[] before = new long[layers.size()];
        for (int i = 0; i < before.length; i++) before[i] = layers.get(i).nonZeros();
        switch (spec) {
            case PruneSpec.Magnitude m when m.scope() == PruneScope.GLOBAL -> magnitudeGlobal(m.sparsity(), layers);
            case PruneSpec.Magnitude m -> {
                for (LayerWeights layer : layers) {
                    long n = layer.values().length;
                    Ranking.keepLargestMagnitudes(new float[][] {layer.values()}, n - Ranking.prunedCount(m.sparsity(), n));
                }
            }
            case PruneSpec.Nm nm -> {
                for (LayerWeights layer : layers) NmPruning.apply(layer, nm.pattern());
            }
            case PruneSpec.Block b -> {
                for (LayerWeights layer : layers) BlockPruning.apply(layer, b.shape(), b.sparsity());
            }
            case PruneSpec.Rows r -> {
                for (LayerWeights layer : layers) BlockPruning.applyRows(layer, r.sparsity());
            }
        }
        List<PruneResult> results = new ArrayList<>(layers.size());
        for (int i = 0; i < before.length; i++) {
            LayerWeights layer = layers.get(i);
            results.add(new PruneResult(layer.name(), layer.values().length, before[i], layer.nonZeros()));
        }
        return results;
    }

    private static void magnitudeGlobal(double sparsity, List<LayerWeights> layers) {
        float[][] arrays = new float[layers.size()][];
        long total = 0;
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = layers.get(i).values();
            total += arrays[i].length;
        }
        Ranking.keepLargestMagnitudes(arrays, total - Ranking.prunedCount(sparsity, total));
    }
}
