package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Progress;
import java.util.ArrayList;
import java.util.List;

/**
 * The what-if table: every format on every layer, for every (spec, sparsity) scenario. Each layer
 * is pruned in memory to the scenario's sparsity by magnitude, except for 2:4, which gets N:M 2:4
 * pruning (50 % by construction). A format that cannot run a layer (no peak for the dtype, not
 * 2:4) has no estimate there and a reason instead. The winner of a layer is its fastest format.
 */
public final class Comparison {
    /** One machine at one target sparsity; {@code dtype} is the value type used on that machine. */
    public record Scenario(HardwareSpec spec, double sparsity, DType dtype) {}

    private final List<String> layerNames;
    private final List<String> formats;
    private final List<Scenario> scenarios;
    private final LayerEstimate[][][] estimates;
    private final String[][][] reasons;

    private Comparison(List<String> layerNames, List<String> formats, List<Scenario> scenarios,
                       LayerEstimate[][][] estimates, String[][][] reasons) {
        this.layerNames = List.copyOf(layerNames);
        this.formats = List.copyOf(formats);
        this.scenarios = List.copyOf(scenarios);
        this.estimates = estimates;
        this.reasons = reasons;
    }

    /** {@code dtype} null: each spec's default ({@link Simulation#defaultDType}). */
    public static Comparison run(List<HardwareSpec> specs, List<GemmLayer> layers, List<String> formatNames,
                                 List<Double> sparsities, long batch, DType dtype, TrafficModel memory) {
        return run(specs, layers, formatNames, sparsities, batch, dtype, memory, Progress.NONE);
    }

    /** As above, reporting each (sparsity, layer) done to {@code progress}. */
    public static Comparison run(List<HardwareSpec> specs, List<GemmLayer> layers, List<String> formatNames,
                                 List<Double> sparsities, long batch, DType dtype, TrafficModel memory, Progress progress) {
        List<GemmLayer> gemms = Simulation.gemmLayers(layers);
        List<String> names = new ArrayList<>();
        for (GemmLayer l : gemms) names.add(l.name());
        List<Scenario> scenarios = new ArrayList<>();
        for (HardwareSpec spec : specs) {
            for (double s : sparsities) scenarios.add(new Scenario(spec, s, dtype == null ? Simulation.defaultDType(spec) : dtype));
        }
        LayerEstimate[][][] est = new LayerEstimate[scenarios.size()][formatNames.size()][gemms.size()];
        String[][][] why = new String[scenarios.size()][formatNames.size()][gemms.size()];
        boolean twoFour = formatNames.contains("2:4");
        boolean oneTwo = formatNames.contains("1:2");
        for (int si = 0; si < sparsities.size(); si++) {
            double s = sparsities.get(si);
            for (int l = 0; l < gemms.size(); l++) {
                // Workloads do not depend on the spec except for the dtype: scan once per sparsity.
                Workload magnitude = Workloads.of(gemms.get(l), batch, DType.F32, Workloads.Pruning.MAGNITUDE, s);
                Workload nm = twoFour ? Workloads.of(gemms.get(l), batch, DType.F32, Workloads.Pruning.TWO_FOUR, 0.5) : null;
                Workload nm12 = oneTwo ? Workloads.of(gemms.get(l), batch, DType.F32, Workloads.Pruning.ONE_TWO, 0.5) : null;
                for (int sc = 0; sc < scenarios.size(); sc++) {
                    Scenario scenario = scenarios.get(sc);
                    if (scenario.sparsity() != s) continue;
                    PerfModel model = new PerfModel(scenario.spec(), memory);
                    // One workload object per pruning and scenario, so the traffic model's per-workload
                    // replays (the dense baseline's above all) are shared by every format.
                    Workload wm = magnitude.withDType(scenario.dtype());
                    Workload w24 = nm == null ? null : nm.withDType(scenario.dtype());
                    Workload w12 = nm12 == null ? null : nm12.withDType(scenario.dtype());
                    // The layer's one dense baseline (the shape and dtype are the same under every pruning).
                    String denseWhy = FormatModels.byName("dense").unsupported(wm, scenario.spec());
                    Prediction baseline = denseWhy == null ? model.baseline(wm) : null;
                    for (int f = 0; f < formatNames.size(); f++) {
                        FormatModel format = FormatModels.byName(formatNames.get(f));
                        Workload w = format.name().equals("2:4") ? w24 : format.name().equals("1:2") ? w12 : wm;
                        String reason = format.unsupported(w, scenario.spec());
                        if (reason == null) reason = denseWhy;
                        if (reason == null) est[sc][f][l] = model.estimate(w, format, baseline);
                        else why[sc][f][l] = reason;
                    }
                }
                progress.update((long) si * gemms.size() + l + 1, (long) sparsities.size() * gemms.size());
            }
        }
        progress.finish();
        return new Comparison(names, formatNames, scenarios, est, why);
    }

    public List<String> layerNames() {
        return layerNames;
    }

    public List<String> formats() {
        return formats;
    }

    public List<Scenario> scenarios() {
        return scenarios;
    }

    /** The estimate, or null when the format cannot run the layer in this scenario. */
    public LayerEstimate estimate(Scenario s, String format, int layer) {
        return estimates[scenarios.indexOf(s)][formats.indexOf(format)][layer];
    }

    public String reason(Scenario s, String format, int layer) {
        return reasons[scenarios.indexOf(s)][formats.indexOf(format)][layer];
    }

    /**
     * The best format's estimate for a layer in a scenario (the highest speedup over its
     * one dense baseline, as {@link PerfModel#bestOrNull} ranks), or null when no format ran.
     */
    public LayerEstimate winner(Scenario s, int layer) {
        LayerEstimate best = null;
        for (String f : formats) {
            LayerEstimate e = estimate(s, f, layer);
            if (e != null && (best == null || e.speedup() > best.speedup())) best = e;
        }
        return best;
    }

    public List<LayerEstimate> winnersOfLastScenario() {
        List<LayerEstimate> out = new ArrayList<>();
        if (scenarios.isEmpty()) return out;
        Scenario last = scenarios.get(scenarios.size() - 1);
        for (int l = 0; l < layerNames.size(); l++) {
            LayerEstimate e = winner(last, l);
            if (e != null) out.add(e);
        }
        return out;
    }

    /** Sum over layers of one format's predicted time in a scenario (NaN when some layer cannot run it). */
    public double totalSeconds(Scenario s, String format) {
        double t = 0;
        for (int l = 0; l < layerNames.size(); l++) {
            LayerEstimate e = estimate(s, format, l);
            if (e == null) return Double.NaN;
            t += e.predictedSeconds();
        }
        return t;
    }

    public double denseTotalSeconds(Scenario s) {
        double t = 0;
        for (int l = 0; l < layerNames.size(); l++) {
            LayerEstimate e = winner(s, l);
            if (e == null) return Double.NaN;
            t += e.denseSeconds();
        }
        return t;
    }
}
