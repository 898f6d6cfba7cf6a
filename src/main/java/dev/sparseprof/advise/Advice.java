package dev.sparseprof.advise;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code advise} as a library: the candidates of every GEMM layer (pruned and scanned once), then per
 * spec and token count the curves and the plan. Traffic is the analytical model, which is what
 * {@code simulate}'s default ({@code --traffic checked}) predicts with (its replays only check).
 */
public final class Advice {
    private Advice() {}

    /** The default sparsity grid of the patterns without a fixed sparsity. */
    public static final double[] GRID = {0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95};

    /** The default patterns. */
    public static final List<String> DEFAULT_PATTERNS = List.of("unstructured", "2:4", "bsr4x4", "bsr16x16", "rows");

    /** The candidates of every GEMM layer of {@code layers}. */
    public static List<LayerCandidates> candidates(List<GemmLayer> layers, List<Pattern> patterns, double[] grid, Progress progress) {
        return candidates(layers, patterns, grid, null, progress);
    }

    /** As above, ranked by Wanda's score where {@code norms} (null: none) holds the layer's input-channel norms. */
    public static List<LayerCandidates> candidates(List<GemmLayer> layers, List<Pattern> patterns, double[] grid, ActivationNorms norms,
                                                   Progress progress) {
        List<GemmLayer> gemms = Simulation.gemmLayers(layers);
        if (gemms.isEmpty()) throw new SparseprofException("advise: the model has no GEMM layers");
        List<LayerCandidates> out = new ArrayList<>(gemms.size());
        for (int i = 0; i < gemms.size(); i++) {
            out.add(LayerCandidates.of(gemms.get(i), patterns, grid, norms == null ? null : norms.of(gemms.get(i).name())));
            progress.update(i + 1, gemms.size());
        }
        progress.finish();
        return out;
    }

    /** The plan for one spec and token count, in the spec's default value type. */
    public static Plan plan(HardwareSpec spec, String specName, long tokens, List<LayerCandidates> layers, Planner.Goal goal) {
        return plan(spec, specName, tokens, layers, goal, null);
    }

    /**
     * The plan in {@code dtype}; null: the spec's default ({@code simulate} picks the weights' stored
     * dtype when it is a narrow one, else this).
     */
    public static Plan plan(HardwareSpec spec, String specName, long tokens, List<LayerCandidates> layers, Planner.Goal goal, DType dtype) {
        if (dtype == null) dtype = Simulation.defaultDType(spec);
        PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
        List<FormatModel> formats = LayerCurve.allFormats();
        List<LayerCurve> curves = new ArrayList<>(layers.size());
        for (LayerCandidates l : layers) curves.add(LayerCurve.of(model, formats, l, tokens, dtype));
        Plan plan = Planner.plan(specName, tokens, curves, goal, model, dtype);
        // The frontier: the same greedy walk with no goal, to every layer at its fastest point.
        return plan.withFrontier(Planner.plan(specName, tokens, curves, Planner.Goal.budget(Double.MAX_VALUE), model, dtype).frontier());
    }
}
