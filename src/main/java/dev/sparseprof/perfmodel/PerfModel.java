package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.cpu.Footprint;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;

/**
 * The performance model's entry point: a layer's workload, a machine and a format (or the best of
 * several) give a {@link LayerEstimate} with its gap breakdown. The memory model is pluggable
 * ({@link TrafficModel#ANALYTICAL} until a simulated one is given).
 */
public final class PerfModel {
    private final HardwareSpec spec;
    private final TrafficModel memory;

    public PerfModel(HardwareSpec spec, TrafficModel memory) {
        this.spec = spec;
        this.memory = memory;
    }

    public HardwareSpec spec() {
        return spec;
    }

    public Prediction predict(Workload w, FormatModel format, Features features) {
        return Roofline.predict(w, format.plan(w, spec), spec, memory, features);
    }

    /**
     * The prediction of a call taken in turn with other kernels' calls that touch
     * {@code interleaved} distinct bytes between two of its calls, as {@code measure} times a
     * layer's formats round by round ({@code Footprint.ZERO}: back-to-back calls, {@link #predict(Workload, FormatModel, Features)}).
     */
    public Prediction predict(Workload w, FormatModel format, Features features, Footprint interleaved) {
        return predict(w, format.plan(w, spec), features, interleaved);
    }

    /** {@link #predict(Workload, FormatModel, Features, Footprint)} of a plan already made on this model's spec. */
    public Prediction predict(Workload w, KernelPlan plan, Features features, Footprint interleaved) {
        return Roofline.predict(w, plan, spec, memory, features, interleaved);
    }

    /**
     * The layer's one dense baseline: the dense GEMM under this model's traffic, with every cost
     * on. Every estimate of the layer is measured against it, whatever traffic the candidate got
     * (a format without a traced kernel falls back to the analytical model and says so in its
     * {@link Traffic#source()}); on a GPU all traffic is the analytical tile-level model, so both
     * sides stand on one footing there. An error when dense cannot run the layer.
     */
    public Prediction baseline(Workload w) {
        FormatModel dense = FormatModels.byName("dense");
        String denseWhy = dense.unsupported(w, spec);
        if (denseWhy != null) throw new SparseprofException(spec.source() + ": " + w.name() + ": dense baseline: " + denseWhy);
        return predict(w, dense, Features.ALL);
    }

    /** The estimate for one format; a format that cannot run the workload is an error naming why. */
    public LayerEstimate estimate(Workload w, FormatModel format) {
        return estimate(w, format, baseline(w));
    }

    /**
     * The estimate for one format against a baseline already predicted by {@link #baseline} for a
     * workload of the same shape and dtype (callers that estimate several formats of one layer pass
     * the same one, so the layer has one dense baseline everywhere).
     */
    public LayerEstimate estimate(Workload w, FormatModel format, Prediction baseline) {
        String why = format.unsupported(w, spec);
        if (why != null) throw new SparseprofException(spec.source() + ": " + w.name() + ": format " + format.name() + ": " + why);
        FormatModel dense = FormatModels.byName("dense");
        KernelPlan plan = format.plan(w, spec);
        Prediction all = Roofline.predict(w, plan, spec, memory, Features.ALL);
        Prediction none = Roofline.predict(w, plan, spec, memory, Features.NONE);
        Prediction withIndex = Roofline.predict(w, plan, spec, memory, new Features(true, false, false, false));
        Prediction withMisses = Roofline.predict(w, plan, spec, memory, new Features(true, true, false, false));
        Prediction withImbalance = Roofline.predict(w, plan, spec, memory, new Features(true, true, true, false));
        GapBreakdown gap = GapBreakdown.of(w, format.name().equals("dense"), baseline, none, withIndex, withMisses, withImbalance, all,
                true);
        List<Balance> schedules = spec.isGpu() ? List.of()
                : LoadBalance.cpuSchedules(w.rowLengths(), Machine.columnTiles(spec, w), spec.parallelUnits());
        return new LayerEstimate(w, format.name(), all, baseline, gap, format.storedBytes(w), dense.storedBytes(w), schedules);
    }

    /** The estimates of those of {@code formats} that can run the workload, in order, all against one baseline. */
    public List<LayerEstimate> estimates(Workload w, List<FormatModel> formats) {
        Prediction baseline = baseline(w);
        List<LayerEstimate> out = new ArrayList<>(formats.size());
        for (FormatModel f : formats) if (f.unsupported(w, spec) == null) out.add(estimate(w, f, baseline));
        return out;
    }

    /** The best of {@code formats} that can run the workload, ranked as {@link #fastest} ranks (dense always can on a sane spec). */
    public LayerEstimate best(Workload w, List<FormatModel> formats) {
        LayerEstimate best = bestOrNull(w, formats);
        if (best == null) throw new SparseprofException(spec.source() + ": " + w.name() + ": none of the formats can run this layer");
        return best;
    }

    /** The best of {@code formats} that can run the workload, or null when none can (see {@link #fastest}). */
    public LayerEstimate bestOrNull(Workload w, List<FormatModel> formats) {
        return fastest(estimates(w, formats), false);
    }

    /**
     * The highest speedup among {@code estimates} (all of one layer, against its one baseline, so
     * this is the fastest), skipping dense when {@code sparseOnly}; null when none is left.
     */
    public static LayerEstimate fastest(List<LayerEstimate> estimates, boolean sparseOnly) {
        LayerEstimate best = null;
        for (LayerEstimate e : estimates) {
            if (sparseOnly && e.format().equals("dense")) continue;
            if (best == null || e.speedup() > best.speedup()) best = e;
        }
        return best;
    }
}
