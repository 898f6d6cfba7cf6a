package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Progress;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The what-if table: every format on every layer, for every (spec, token count, sparsity) scenario.
 * Each format is judged under its own pattern ({@link #pruningOf}): bsrRxC on the layer pruned in
 * whole RxC blocks to the scenario's sparsity, N:M formats on N:M pruning (their sparsity is fixed),
 * the other formats on unstructured magnitude pruning to the scenario's sparsity. Every format of a
 * layer is set against the layer's one dense baseline (the shape and dtype are the same under every
 * pruning), so the winner, the fastest format, is also the one with the highest speedup. A format
 * that cannot run a layer (no peak for the dtype, not 2:4) has no estimate there and a reason instead.
 */
public final class Comparison {
    /** One machine at one token count and target sparsity; {@code dtype} is the value type used on that machine. */
    public record Scenario(HardwareSpec spec, double sparsity, long batch, DType dtype) {
        public Scenario(HardwareSpec spec, double sparsity, DType dtype) {
            this(spec, sparsity, 1, dtype);
        }
    }

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

    /**
     * The pruning {@code format} is judged under at {@code sparsity}: whole RxC blocks for bsrRxC,
     * N:M for an N:M format, unstructured magnitude per layer for the rest.
     */
    public static PruneSpec pruningOf(String format, double sparsity) {
        FormatModel f = FormatModels.byName(format);
        if (f instanceof BsrFormat b) return new PruneSpec.Block(b.shape(), sparsity);
        if (f instanceof TwoFourFormat t) return new PruneSpec.Nm(t.pattern());
        return new PruneSpec.Magnitude(sparsity, PruneScope.LAYER);
    }

    /** {@code dtype} null: each spec's default ({@link Simulation#defaultDType}). */
    public static Comparison run(List<HardwareSpec> specs, List<GemmLayer> layers, List<String> formatNames,
                                 List<Double> sparsities, long batch, DType dtype, TrafficModel memory) {
        return run(specs, layers, formatNames, sparsities, List.of(batch), dtype, memory, Progress.NONE);
    }

    /**
     * Every scenario of {@code specs} x {@code batches} x {@code sparsities} (in that nesting),
     * reporting each (sparsity, layer) done to {@code progress}.
     */
    public static Comparison run(List<HardwareSpec> specs, List<GemmLayer> layers, List<String> formatNames,
                                 List<Double> sparsities, List<Long> batches, DType dtype, TrafficModel memory, Progress progress) {
        List<GemmLayer> gemms = Simulation.gemmLayers(layers);
        List<String> names = new ArrayList<>();
        for (GemmLayer l : gemms) names.add(l.name());
        List<Scenario> scenarios = new ArrayList<>();
        for (HardwareSpec spec : specs) {
            for (long n : batches) {
                for (double s : sparsities) scenarios.add(new Scenario(spec, s, n, dtype == null ? Simulation.defaultDType(spec) : dtype));
            }
        }
        LayerEstimate[][][] est = new LayerEstimate[scenarios.size()][formatNames.size()][gemms.size()];
        String[][][] why = new String[scenarios.size()][formatNames.size()][gemms.size()];
        for (int si = 0; si < sparsities.size(); si++) {
            double s = sparsities.get(si);
            for (int l = 0; l < gemms.size(); l++) {
                // Workloads do not depend on the spec or N except for the dtype and width: prune and scan once per
                // (sparsity, pruning), one sample wide.
                Map<PruneSpec, Workload> pruned = new HashMap<>();
                Workload[] byFormat = new Workload[formatNames.size()];
                for (int f = 0; f < formatNames.size(); f++) {
                    PruneSpec p = pruningOf(formatNames.get(f), s);
                    Workload w = pruned.get(p);
                    if (w == null) {
                        w = Workloads.pruned(gemms.get(l), 1, DType.F32, p);
                        pruned.put(p, w);
                    }
                    byFormat[f] = w;
                }
                Workload any = byFormat[0];
                for (int sc = 0; sc < scenarios.size(); sc++) {
                    Scenario scenario = scenarios.get(sc);
                    if (scenario.sparsity() != s) continue;
                    PerfModel model = new PerfModel(scenario.spec(), memory);
                    long columns = gemms.get(l).denseColumns(scenario.batch());
                    // One workload object per pruning and scenario, so the traffic model's per-workload
                    // replays are shared by every format of that pruning.
                    Map<Workload, Workload> wide = new IdentityHashMap<>();
                    Workload base = any.withColumns(columns).withDType(scenario.dtype());
                    wide.put(any, base);
                    // The layer's one dense baseline (the shape and dtype are the same under every pruning).
                    String denseWhy = FormatModels.byName("dense").unsupported(base, scenario.spec());
                    Prediction baseline = denseWhy == null ? model.baseline(base) : null;
                    for (int f = 0; f < formatNames.size(); f++) {
                        FormatModel format = FormatModels.byName(formatNames.get(f));
                        Workload w = wide.computeIfAbsent(byFormat[f], k -> k.withColumns(columns).withDType(scenario.dtype()));
                        String reason = format.unsupported(w, scenario.spec());
                        if (reason == null) reason = denseWhy;
                        if (reason == null) est[sc][f][l] = model.estimate(w, format, baseline);
                        else why[sc][f][l] = reason;
                    }
                }
                progress.update((long) si * gemms.size() + l + 1, (long) sparsities.size() * gemms.size());
            }
        }
        // compare's reports show every estimate's check: made here, while the layers' matrices are open
        for (LayerEstimate[][] bySc : est) for (LayerEstimate[] byF : bySc) PendingCheck.makeShown(Arrays.asList(byF));
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
     * The fastest format's estimate for a layer in a scenario (every format has the layer's one dense
     * baseline, so it is also the highest speedup; ties to the earlier format), or null when no format ran.
     */
    public LayerEstimate winner(Scenario s, int layer) {
        LayerEstimate best = null;
        for (String f : formats) {
            LayerEstimate e = estimate(s, f, layer);
            if (e != null && (best == null || e.predictedSeconds() < best.predictedSeconds())) best = e;
        }
        return best;
    }

    /** What a layer runs fastest as, in a scenario: a format, or {@link #DENSE} where no format beats its dense GEMM. */
    public record Choice(String name, double seconds, double speedup) {}

    /** {@link Choice#name} where the layer's dense GEMM is at least as fast as every format: keep the layer dense. */
    public static final String DENSE = "dense";

    /**
     * The layer's choice in a scenario: the fastest format where it beats the layer's dense GEMM, else
     * the dense GEMM itself (speedup 1: pruning that layer for these formats does not pay on this
     * machine); null when no format ran.
     */
    public Choice choice(Scenario s, int layer) {
        LayerEstimate best = winner(s, layer);
        if (best == null) return null;
        if (best.predictedSeconds() >= best.denseSeconds()) return new Choice(DENSE, best.denseSeconds(), 1);
        return new Choice(best.format(), best.predictedSeconds(), best.speedup());
    }

    /** Sum over layers of the choices' times in a scenario (NaN when some layer has no winner): never above the dense total. */
    public double winnersTotalSeconds(Scenario s) {
        double t = 0;
        for (int l = 0; l < layerNames.size(); l++) {
            Choice c = choice(s, l);
            if (c == null) return Double.NaN;
            t += c.seconds();
        }
        return t;
    }

    /**
     * How many layers each choice takes in a scenario: the formats in the order of {@link #formats()},
     * then {@link #DENSE} (zeros left out).
     */
    public Map<String, Integer> winnerCounts(Scenario s) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String f : formats) counts.put(f, 0);
        counts.putIfAbsent(DENSE, 0);
        for (int l = 0; l < layerNames.size(); l++) {
            Choice c = choice(s, l);
            if (c != null) counts.merge(c.name(), 1, Integer::sum);
        }
        counts.values().removeIf(v -> v == 0);
        return counts;
    }

    /** Each layer's fastest format in the last scenario ({@link #winner}), whether or not it beats the layer's dense GEMM. */
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
