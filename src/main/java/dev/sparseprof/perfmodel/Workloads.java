package dev.sparseprof.perfmodel;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.List;

/**
 * Workloads from real layers: the weight's statistics (one scan by {@code sparse.stats}) give the
 * row lengths, 2:4 compliance and the block counts of every registered BSR shape; what-if pruning ({@code sparse.prune}, on an
 * in-memory copy) comes first when asked.
 */
public final class Workloads {
    private static final ScanOptions SCAN = new ScanOptions(List.of(NmPattern.TWO_FOUR, NmPattern.ONE_TWO), FormatModels.BSR_SHAPES, false, 1);

    /** How a what-if run prunes each layer before it is modelled. */
    public enum Pruning {
        /** The weights as the model file holds them. */
        NONE,
        /** Unstructured magnitude pruning within each layer to the target sparsity. */
        MAGNITUDE,
        /** 2:4 along K (the target sparsity is 50 % by construction). */
        TWO_FOUR,
        /** 1:2 along K, the tf32 sparse tensor cores' pattern (50 % too). */
        ONE_TWO;

        /** N:M structured pruning for {@code pattern} (2:4 or 1:2). */
        public static Pruning structured(NmPattern pattern) {
            return pattern.equals(NmPattern.ONE_TWO) ? ONE_TWO : TWO_FOUR;
        }
    }

    private Workloads() {}

    public static Workload of(GemmLayer layer, long batch, DType dtype, Pruning pruning, double sparsity) {
        return switch (pruning) {
            case NONE -> of(layer, layer.matrix(), batch, dtype);
            case TWO_FOUR -> pruned(layer, batch, dtype, new PruneSpec.Nm(NmPattern.TWO_FOUR));
            case ONE_TWO -> pruned(layer, batch, dtype, new PruneSpec.Nm(NmPattern.ONE_TWO));
            case MAGNITUDE -> pruned(layer, batch, dtype, new PruneSpec.Magnitude(sparsity, PruneScope.LAYER));
        };
    }

    /**
     * The workload of {@code layer} pruned in memory (on a copy) by {@code spec}. The copy is fp32,
     * 4 bytes a weight: a workload keeps it (for the sampled memsim replays, {@link SimulatedTraffic})
     * only up to {@link #RETAINED_PRUNED_ELEMENTS}; a larger layer keeps its statistics and no
     * matrix, so a pruned model needs one layer's copy at a time. {@code simulate --nm 2:4} of a
     * LLaMA-2-7B-shaped checkpoint kept every copy, 25 GB of fp32, and ran out of an 8 GiB heap.
     */
    public static Workload pruned(GemmLayer layer, long batch, DType dtype, PruneSpec spec) {
        float[] copy = layer.matrix().toDense();
        Pruner.apply(spec, List.of(new LayerWeights(layer.name(), layer.rows(), layer.cols(), copy)));
        MatrixView prunedView = MatrixView.of(layer.rows(), layer.cols(), copy);
        Workload w = of(layer, prunedView, batch, dtype);
        return copy.length <= RETAINED_PRUNED_ELEMENTS ? w : w.withoutMatrix();
    }

    /** The largest pruned copy a workload keeps: 4 M weights, 16 MiB of fp32 (BERT-large's 1024 x 4096 layers). */
    static final long RETAINED_PRUNED_ELEMENTS = 1L << 22;

    /**
     * {@code layer}'s GEMM over the weight {@code a} for a batch of {@code batch} samples: its N and
     * how often it runs ({@link GemmLayer}); in the layer's stored type its weights weigh what the
     * file stores ({@link GemmLayer#storedBitsPerWeight}), in another type that type's width.
     */
    private static Workload of(GemmLayer layer, MatrixView a, long batch, DType dtype) {
        return new Workload(layer.name(), MatrixScan.of(a, scanOptions(a)), layer.denseColumns(batch), dtype, a, layer.activeShare(batch),
                dtype == layer.storedDType() ? layer.storedBitsPerWeight() : dtype.bits());
    }

    /**
     * The scan's options for {@code a}: on every core for a layer of a million elements or more (an
     * LLM's weights: the scan is most of a simulation's time), else on the calling thread (a
     * thread's start costs more than a small layer's scan).
     */
    static ScanOptions scanOptions(MatrixView a) {
        return (long) a.rows() * a.cols() >= PARALLEL_SCAN_ELEMENTS ? SCAN.withThreads(Runtime.getRuntime().availableProcessors()) : SCAN;
    }

    static final long PARALLEL_SCAN_ELEMENTS = 1L << 20;

    public static Workload of(String name, MatrixStats stats, long denseColumns, DType dtype) {
        return new Workload(name, stats, denseColumns, dtype, null);
    }
}
