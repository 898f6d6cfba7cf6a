package dev.sparseprof.report;

import dev.sparseprof.perfmodel.GapBreakdown;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.Traffic;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The {@code simulate} report: a per-layer text table with totals, and the same as JSON. */
public final class SimulationReport {
    private SimulationReport() {}

    public static String table(Simulation.Result r) {
        Simulation.Options o = r.options();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s (%s), batch %d, %s, %s%n", r.spec().name(), r.spec().source(), o.batch(),
                o.dtype().label(), pruningLabel(o)));
        TextTable t = new TextTable("layer", "M x K x N", "sparsity", "format", "predicted", "dense", "speedup", "theory",
                "bottleneck", "miss rates", "DRAM", "imbal", "largest gap part", "best sparse");
        t.rightAlign(2, 4, 5, 6, 7, 10, 11);
        for (int i = 0; i < r.layers().size(); i++) {
            LayerEstimate e = r.layers().get(i);
            LayerEstimate s = r.bestSparse().get(i);
            t.row(e.workload().name(), e.workload().rows() + "x" + e.workload().cols() + "x" + e.workload().denseColumns(),
                    percent(e.workload().sparsity()), e.format(), Units.formatSeconds(e.predictedSeconds()),
                    Units.formatSeconds(e.denseSeconds()), times(e.speedup()), times(e.theoreticalSpeedup()),
                    e.predicted().bottleneck(), missRates(e.predicted().traffic()),
                    Units.formatBytes(e.predicted().traffic().dramBytes()),
                    String.format(Locale.ROOT, "%.2f", e.predicted().imbalanceFactor()), largestGap(e, s),
                    s == null ? "-" : s.format() + " " + times(s.speedup()));
        }
        t.rule();
        t.row("total (" + r.layers().size() + " layers)", "", "", "", Units.formatSeconds(r.predictedSeconds()),
                Units.formatSeconds(r.denseSeconds()), times(r.speedup()), "", "", "", "", "", "", "");
        sb.append(t.render());
        sb.append("memory traffic: ").append(String.join("; ", trafficSources(r.layers())))
                .append("\nlargest gap part: the biggest cost beyond ideal = dense / theory (parts add up to predicted - ideal;"
                        + " a dense row shows its best sparse candidate's, named)\n");
        return sb.toString();
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
        j.name("totals").beginObject().field("layers", r.layers().size()).field("predictedSeconds", r.predictedSeconds())
                .field("denseSeconds", r.denseSeconds()).field("speedup", r.speedup()).endObject();
        j.endObject();
        return j.toString();
    }

    /** The distinct traffic sources of the chosen formats, e.g. {@code simulated (memsim, all rows)}. */
    static List<String> trafficSources(List<LayerEstimate> estimates) {
        Set<String> out = new LinkedHashSet<>();
        double worst = 0;
        for (LayerEstimate e : estimates) {
            Traffic t = e.predicted().traffic();
            out.add(e.format() + ": " + t.source());
            if (Double.isFinite(t.samplingError())) worst = Math.max(worst, t.samplingError());
        }
        if (worst > 0) out.add(String.format(Locale.ROOT, "sampling error up to %.1f%% (JSON samplingError per layer)", 100 * worst));
        return List.copyOf(out);
    }

    static String pruningLabel(Simulation.Options o) {
        return switch (o.pruning()) {
            case NONE -> "weights as stored";
            case MAGNITUDE -> "magnitude-pruned to " + percent(o.sparsity()) + " per layer";
            case TWO_FOUR -> "2:4-pruned";
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

    /**
     * The row's largest gap part; where the row's kernel is dense (no gap by definition) that of
     * the best sparse candidate, named: {@code csr: fixedOverheads +3.10 us}.
     */
    static String largestGap(LayerEstimate e, LayerEstimate bestSparse) {
        LayerEstimate shown = e.format().equals("dense") && e.gap().largestPart() < 0 && bestSparse != null ? bestSparse : e;
        GapBreakdown g = shown.gap();
        int i = g.largestPart();
        String prefix = shown == e ? "" : shown.format() + ": ";
        if (i < 0) return prefix + "none";
        return prefix + GapBreakdown.PART_NAMES[i] + " +" + Units.formatSeconds(g.parts()[i]);
    }
}
