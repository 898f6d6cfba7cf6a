package dev.sparseprof.report;

import dev.sparseprof.perfmodel.GapBreakdown;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.Traffic;
import dev.sparseprof.perfmodel.TrafficCheck;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/** The {@code simulate} report: a per-layer text table with totals, and the same as JSON. */
public final class SimulationReport {
    private SimulationReport() {}

    /** The default table: what most readers need (see {@link #table(Simulation.Result, boolean)}). */
    public static String table(Simulation.Result r) {
        return table(r, false);
    }

    /**
     * The per-layer table with totals and one traffic line per format. {@code wide} adds the
     * columns few readers need at a glance (miss rates, DRAM bytes, imbalance, the best sparse
     * candidate of a dense row); JSON carries all of them. On a dense model (nothing pruned) a
     * line says so and how to see what pruning would buy.
     */
    public static String table(Simulation.Result r, boolean wide) {
        Simulation.Options o = r.options();
        StringBuilder sb = new StringBuilder();
        sb.append(TextTable.wrap(String.format(Locale.ROOT, "%s (%s), batch %d, %s, %s", r.spec().name(), r.spec().source(), o.batch(),
                o.dtype().label(), pruningLabel(o))));
        boolean denseModel = isDenseModel(r);
        if (denseModel) {
            sb.append("the model is dense: try --sparsity 0.9, --nm 2:4 or --format 2:4 to see what pruning would buy\n");
        }
        // A dense model's rows are all dense at 1.00x: show the dense time and what each layer's
        // best sparse format would cost as stored instead of the ratios.
        boolean ratios = wide || !denseModel;
        List<String> head = new ArrayList<>(List.of("layer", "M x K x N"));
        if (ratios) head.addAll(List.of("sparsity", "format", "predicted", "dense", "speedup", "theory", "bottleneck", "largest gap part"));
        else head.addAll(List.of("dense", "bottleneck", "best sparse as stored"));
        head.addAll(List.of("miss rates", "DRAM", "imbal", "best sparse"));
        int extra = head.size() - 4;
        TextTable t = new TextTable(head.toArray(new String[0]));
        t.optional(1).wideOnly(extra, extra + 1, extra + 2, extra + 3);
        if (ratios) t.rightAlign(2, 4, 5, 6, 7).optional(5, 7);
        else t.rightAlign(2);
        t.rightAlign(extra + 1, extra + 2);
        for (int i = 0; i < r.layers().size(); i++) {
            LayerEstimate e = r.layers().get(i);
            LayerEstimate s = r.bestSparse().get(i);
            List<String> row = new ArrayList<>(List.of(e.workload().name(),
                    e.workload().rows() + "x" + e.workload().cols() + "x" + e.workload().denseColumns()));
            String best = s == null || s == e ? "-" : s.format() + " " + times(s.speedup()) + ", " + largestGap(s);
            if (ratios) {
                row.addAll(List.of(percent(e.workload().sparsity()), e.format(), Units.formatSeconds(e.predictedSeconds()),
                        Units.formatSeconds(e.denseSeconds()), times(e.speedup()), times(e.theoreticalSpeedup()),
                        e.predicted().bottleneck(), largestGap(e)));
            } else {
                row.addAll(List.of(Units.formatSeconds(e.predictedSeconds()), e.predicted().bottleneck(), best));
            }
            row.addAll(List.of(missRates(e.predicted().traffic()), Units.formatBytes(e.predicted().traffic().dramBytes()),
                    String.format(Locale.ROOT, "%.2f", e.predicted().imbalanceFactor()), best));
            t.row(row.toArray());
        }
        t.rule();
        List<String> total = new ArrayList<>(List.of("total (" + r.layers().size() + " layers)", ""));
        if (ratios) total.addAll(List.of("", "", Units.formatSeconds(r.predictedSeconds()), Units.formatSeconds(r.denseSeconds()),
                times(r.speedup()), "", "", ""));
        else total.addAll(List.of(Units.formatSeconds(r.predictedSeconds()), "", ""));
        total.addAll(List.of("", "", "", ""));
        t.row(total.toArray());
        sb.append(t.render(wide));
        for (String line : trafficSources(r.layers())) sb.append(TextTable.wrap("memory traffic, " + line));
        for (String line : trafficChecks(r.layers())) sb.append(TextTable.wrap("memsim check, " + line));
        if (ratios) sb.append(TextTable.wrap("largest gap part: the biggest cost beyond ideal = dense / theory; the parts add up to predicted - ideal"));
        return sb.toString();
    }

    /** Nothing pruned and every layer's weights dense: speedups are 1 by construction. */
    static boolean isDenseModel(Simulation.Result r) {
        if (r.options().pruning() != Workloads.Pruning.NONE) return false;
        for (LayerEstimate e : r.layers()) if (e.workload().sparsity() > 0) return false;
        return true;
    }

    public static String json(Simulation.Result r) {
        JsonWriter j = new JsonWriter();
        j.beginObject();
        j.name("spec").beginObject().field("name", r.spec().name()).field("source", r.spec().source()).endObject();
        Simulation.Options o = r.options();
        j.field("batch", o.batch()).field("dtype", o.dtype().label()).field("pruning", pruningLabel(o));
        j.name("layers").beginArray();
        for (int i = 0; i < r.layers().size(); i++) {
            LayerEstimate s = r.bestSparse().get(i);
            EstimateJson.write(j, r.layers().get(i), s);
        }
        j.endArray();
        j.name("notModelled").beginArray(); // layers kept dense because the asked pruning is not modelled on them (with why)
        for (int i = 0; i < r.notes().size(); i++) {
            String note = r.notes().get(i);
            if (note != null) j.beginObject().field("layer", r.layers().get(i).workload().name()).field("note", note).endObject();
        }
        j.endArray();
        j.name("totals").beginObject().field("layers", r.layers().size()).field("predictedSeconds", r.predictedSeconds())
                .field("denseSeconds", r.denseSeconds()).field("speedup", r.speedup()).endObject();
        j.endObject();
        return j.toString();
    }

    /**
     * One line per format of the chosen estimates: its traffic source (the most common one; how
     * many layers were sampled differently, with JSON {@code trafficSource} per layer) and the
     * largest sampling error among that format's layers.
     */
    static List<String> trafficSources(List<LayerEstimate> estimates) {
        Map<String, Map<String, Integer>> sources = new LinkedHashMap<>();
        Map<String, Double> worst = new LinkedHashMap<>();
        for (LayerEstimate e : estimates) {
            Traffic t = e.predicted().traffic();
            sources.computeIfAbsent(e.format(), k -> new LinkedHashMap<>()).merge(t.source(), 1, Integer::sum);
            if (Double.isFinite(t.samplingError())) worst.merge(e.format(), t.samplingError(), Math::max);
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Map<String, Integer>> f : sources.entrySet()) {
            String common = null;
            int others = 0;
            for (Map.Entry<String, Integer> s : f.getValue().entrySet()) {
                if (common == null || s.getValue() > f.getValue().get(common)) common = s.getKey();
            }
            for (Map.Entry<String, Integer> s : f.getValue().entrySet()) if (!s.getKey().equals(common)) others += s.getValue();
            StringBuilder line = new StringBuilder(f.getKey()).append(": ").append(common);
            if (others > 0) line.append("; ").append(others).append(others == 1 ? " layer" : " layers").append(" sampled otherwise");
            double err = worst.getOrDefault(f.getKey(), 0.0);
            if (err > 0) line.append(String.format(Locale.ROOT, "; sampling error up to %.1f%%", 100 * err));
            out.add(line.toString());
        }
        return out;
    }

    /**
     * One line per distinct memsim check of the estimates' traffic (GPU: the analytical traffic
     * against a replayed sample, {@link TrafficCheck}): format, sample, each compared level's
     * difference, and whether one is over the tolerance; in the order of the layers (the first to
     * show each check), the dense baseline's before the estimate's own.
     */
    static List<String> trafficChecks(List<LayerEstimate> estimates) {
        Set<TrafficCheck> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Prediction> first = new ArrayList<>();
        for (LayerEstimate e : estimates) {
            for (Prediction p : List.of(e.dense(), e.predicted())) {
                TrafficCheck c = p.traffic().check();
                if (c != null && seen.add(c)) first.add(p);
            }
        }
        List<String> out = new ArrayList<>();
        for (Prediction p : first) {
            TrafficCheck c = p.traffic().check();
            StringBuilder line = new StringBuilder(p.plan().format()).append(" on ").append(c.layer()).append(' ').append(c.sample()).append(':');
            for (int i = 0; i < c.levels().size(); i++) {
                line.append(String.format(Locale.ROOT, " %s %+.1f%%", c.levels().get(i), 100 * c.relativeDifference(i)));
            }
            line.append(c.exceedsTolerance() ? String.format(Locale.ROOT, " (analytical vs replay: over %.0f%%)", 100 * TrafficCheck.TOLERANCE)
                    : String.format(Locale.ROOT, " (within %.0f%%)", 100 * TrafficCheck.TOLERANCE));
            out.add(line.toString());
        }
        return out;
    }

    static String pruningLabel(Simulation.Options o) {
        return switch (o.pruning()) {
            case NONE -> "weights as stored";
            case MAGNITUDE -> "magnitude-pruned to " + percent(o.sparsity()) + " per layer";
            case TWO_FOUR -> "2:4-pruned";
            case ONE_TWO -> "1:2-pruned";
        };
    }

    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
    }

    static String times(double x) {
        return Double.isFinite(x) ? String.format(Locale.ROOT, "%.2fx", x) : "inf";
    }

    static String missRates(Traffic t) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.levels().size() - 1; i++) {
            if (i > 0) sb.append(' ');
            sb.append(t.levels().get(i)).append(' ').append(String.format(Locale.ROOT, "%.0f%%", 100 * t.missRate(i)));
        }
        return sb.toString();
    }

    /** Plain words for the gap parts, in {@link GapBreakdown#PART_NAMES} order (JSON keeps the camelCase keys). */
    static final String[] PART_LABELS = {"roof", "index bytes", "gather misses", "imbalance", "fixed costs"};

    /** The row's largest gap part in plain words, {@code gather misses +1.8 us}; {@code -} for a dense kernel (no gap by definition) or none. */
    static String largestGap(LayerEstimate e) {
        GapBreakdown g = e.gap();
        int i = g.largestPart();
        if (i < 0 || e.format().equals("dense") && e.workload().sparsity() == 0) return "-";
        return PART_LABELS[i] + " +" + Units.formatSeconds(g.parts()[i]);
    }
}
