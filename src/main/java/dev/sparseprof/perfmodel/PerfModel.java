package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.util.SparseprofException;
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

    /** The estimate for one format; a format that cannot run the workload is an error naming why. */
    public LayerEstimate estimate(Workload w, FormatModel format) {
        String why = format.unsupported(w, spec);
        if (why != null) throw new SparseprofException(spec.source() + ": " + w.name() + ": format " + format.name() + ": " + why);
        FormatModel dense = FormatModels.byName("dense");
        String denseWhy = dense.unsupported(w, spec);
        if (denseWhy != null) throw new SparseprofException(spec.source() + ": " + w.name() + ": dense baseline: " + denseWhy);
        KernelPlan plan = format.plan(w, spec);
        Prediction all = Roofline.predict(w, plan, spec, memory, Features.ALL);
        Prediction densePrediction = baseline(w, dense, all.traffic());
        Prediction none = Roofline.predict(w, plan, spec, memory, Features.NONE);
        Prediction withIndex = Roofline.predict(w, plan, spec, memory, new Features(true, false, false, false));
        Prediction withMisses = Roofline.predict(w, plan, spec, memory, new Features(true, true, false, false));
        Prediction withImbalance = Roofline.predict(w, plan, spec, memory, new Features(true, true, true, false));
        GapBreakdown gap = GapBreakdown.of(w, format.name().equals("dense"), densePrediction, none, withIndex, withMisses, withImbalance, all);
        List<Balance> schedules = spec.isGpu() ? List.of()
                : LoadBalance.cpuSchedules(w.rowLengths(), Machine.columnTiles(spec, w), spec.parallelUnits());
        return new LayerEstimate(w, format.name(), all, densePrediction, gap, format.storedBytes(w), dense.storedBytes(w), schedules);
    }

    /**
     * The dense GEMM on the same footing as a candidate whose traffic is {@code candidate}: when
     * the candidate fell back to the analytical model (no traced kernel for its format), the dense
     * baseline is analytical too, so a speedup never compares a simulated dense against an
     * analytical sparse kernel ({@link Traffic#simulated()} says which a side used).
     */
    private Prediction baseline(Workload w, FormatModel dense, Traffic candidate) {
        Prediction p = predict(w, dense, Features.ALL);
        if (candidate.simulated() || !p.traffic().simulated()) return p;
        Prediction analytical = Roofline.predict(w, dense.plan(w, spec), spec, TrafficModel.ANALYTICAL, Features.ALL);
        Traffic t = analytical.traffic();
        Traffic labelled = new Traffic(t.levels(), t.bytes(), t.missRates(), "analytical (same footing as the candidate)", 0);
        return new Prediction(analytical.plan(), labelled, analytical.seconds(), analytical.computeSeconds(), analytical.levelSeconds(),
                analytical.latencySeconds(), analytical.overheadSeconds(), analytical.imbalanceFactor(), analytical.bottleneck());
    }

    /** The best of {@code formats} that can run the workload, ranked as {@link #bestOrNull} ranks (dense always can on a sane spec). */
    public LayerEstimate best(Workload w, List<FormatModel> formats) {
        LayerEstimate best = bestOrNull(w, formats);
        if (best == null) throw new SparseprofException(spec.source() + ": " + w.name() + ": none of the formats can run this layer");
        return best;
    }

    /**
     * The best of {@code formats} that can run the workload, or null when none can. Candidates are
     * ranked by speedup over their own same-footing dense baseline (see {@link #baseline}), so a
     * simulated candidate and an analytical one are compared as ratios on one model each, never
     * by raw times from two different memory models.
     */
    public LayerEstimate bestOrNull(Workload w, List<FormatModel> formats) {
        LayerEstimate best = null;
        for (FormatModel f : formats) {
            if (f.unsupported(w, spec) != null) continue;
            LayerEstimate e = estimate(w, f);
            if (best == null || e.speedup() > best.speedup()) best = e;
        }
        return best;
    }
}
