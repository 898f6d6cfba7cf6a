package dev.sparseprof.report;

import dev.sparseprof.perfmodel.Comparison;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code compare --html} page: speedup vs sparsity per format and spec (the crossover curves),
 * each scenario's per-layer times with the dense bar, the roofline and gap waterfall of the last
 * scenario's winners, and one sortable table of every scenario and layer.
 */
final class ComparisonPage {
    private ComparisonPage() {}

    static String build(Comparison c) {
        StringBuilder h = new StringBuilder();
        h.append("<p>").append(HtmlReport.esc(c.formats().size() + " formats (" + String.join(", ", c.formats()) + ") on "
                + c.layerNames().size() + " layers in " + c.scenarios().size() + " scenarios (spec x sparsity); magnitude pruning per layer, "
                + "N:M formats get their own N:M pruning.")).append("</p>\n");
        JsonWriter j = new JsonWriter();
        j.beginObject().name("charts").beginArray();

        HtmlReport.section(h, "Speedup over dense vs sparsity", "The whole model, per format and spec: where a curve crosses the dashed "
                + "line the format starts to pay. Each point sits at the sparsity that format's pruning really reached.");
        HtmlReport.chart(h, "curves", 520);
        ChartData.curves(j, "curves", "Speedup over dense vs sparsity", "model total, dense / format", 0, 100, curves(c));

        List<ChartData.Group> groups = new ArrayList<>();
        for (Comparison.Scenario s : c.scenarios()) {
            List<ChartData.Series> series = new ArrayList<>();
            double[] dense = new double[c.layerNames().size()];
            for (int l = 0; l < dense.length; l++) {
                LayerEstimate w = c.winner(s, l);
                dense[l] = w == null ? Double.NaN : w.denseSeconds();
            }
            series.add(new ChartData.Series("dense", dense, null));
            for (String f : c.formats()) {
                double[] v = new double[dense.length];
                List<String> notes = new ArrayList<>();
                for (int l = 0; l < v.length; l++) {
                    LayerEstimate e = c.estimate(s, f, l);
                    v[l] = e == null ? Double.NaN : e.predictedSeconds();
                    String why = c.reason(s, f, l);
                    notes.add(e == null ? (why == null ? "cannot run" : why) : SimulationReport.times(e.speedup()) + " over dense");
                }
                series.add(new ChartData.Series(f, v, notes));
            }
            groups.add(new ChartData.Group(scenarioName(s), c.layerNames(), series));
        }
        HtmlReport.section(h, "Time per layer and format", "Pick a scenario; the first bar of each layer is its dense GEMM.");
        HtmlReport.chart(h, "times", 540);
        ChartData.bars(j, "times", "Time per layer", null, "s", "time", "scenario", groups);

        List<LayerEstimate> winners = c.winnersOfLastScenario();
        if (!winners.isEmpty()) {
            Comparison.Scenario last = c.scenarios().get(c.scenarios().size() - 1);
            HtmlReport.section(h, "Roofline of each layer's fastest format, " + scenarioName(last), null);
            HtmlReport.chart(h, "roofline", 620);
            RooflineChart.write(j, "roofline", "Roofline: " + last.spec().name() + ", fastest formats at " + SimulationReport.percent(last.sparsity()),
                    last.spec(), winners, true);
            List<String> notes = new ArrayList<>();
            int slowest = 0;
            for (int i = 0; i < winners.size(); i++) {
                notes.add(null);
                if (winners.get(i).predictedSeconds() > winners.get(slowest).predictedSeconds()) slowest = i;
            }
            HtmlReport.section(h, "Where the gap goes, " + scenarioName(last), "Pick a layer: its fastest format's dense time, ideal, each cost beyond it, and predicted time (above dense where no format pays).");
            HtmlReport.chart(h, "waterfall", 460);
            ChartData.waterfall(j, "waterfall", "Efficiency gap of the fastest format", winners, notes, slowest);
        }
        j.endArray().endObject();

        HtmlReport.section(h, "Every scenario and layer", "n/a: the format cannot run that layer there (the JSON says why).");
        table(c).appendTo(h);
        return HtmlReport.page("sparseprof compare", h, j.toString());
    }

    static String scenarioName(Comparison.Scenario s) {
        return s.spec().name() + " at " + SimulationReport.percent(s.sparsity()) + " sparsity, " + s.batch() + " tokens (" + s.dtype().label() + ")";
    }

    /** Per spec and format: (the sparsity the format's pruning reached, in %, model dense time / format time). */
    private static List<ChartData.Curve> curves(Comparison c) {
        Map<String, List<double[]>> byName = new LinkedHashMap<>();
        Set<Long> batches = new HashSet<>();
        for (Comparison.Scenario s : c.scenarios()) batches.add(s.batch());
        for (Comparison.Scenario s : c.scenarios()) {
            for (String f : c.formats()) {
                double dense = 0;
                double time = 0;
                double nnz = 0;
                double cells = 0;
                boolean all = true;
                for (int l = 0; l < c.layerNames().size(); l++) {
                    LayerEstimate e = c.estimate(s, f, l);
                    if (e == null) {
                        all = false;
                        break;
                    }
                    dense += e.denseSeconds();
                    time += e.predictedSeconds();
                    nnz += e.workload().nnz();
                    cells += (double) e.workload().rows() * e.workload().cols();
                }
                if (!all || !(time > 0)) continue;
                double x = 100 * (1 - nnz / cells);
                List<double[]> pts = byName.computeIfAbsent(f + " on " + s.spec().name() + (batches.size() > 1 ? " at " + s.batch() : ""), k -> new ArrayList<>());
                boolean seen = false;
                for (double[] p : pts) seen |= Math.abs(p[0] - x) < 1e-9;
                if (!seen) pts.add(new double[] {x, dense / time});
            }
        }
        List<ChartData.Curve> out = new ArrayList<>();
        for (Map.Entry<String, List<double[]>> e : byName.entrySet()) {
            e.getValue().sort((a, b) -> Double.compare(a[0], b[0]));
            out.add(new ChartData.Curve(e.getKey(), e.getValue()));
        }
        return out;
    }

    private static HtmlTable table(Comparison c) {
        List<String> header = new ArrayList<>(List.of("spec", "tokens", "sparsity", "layer", "dense"));
        header.addAll(c.formats());
        header.addAll(List.of("winner", "speedup"));
        HtmlTable t = new HtmlTable("Predicted time per format", header);
        for (Comparison.Scenario s : c.scenarios()) {
            for (int l = 0; l < c.layerNames().size(); l++) {
                LayerEstimate w = c.winner(s, l);
                List<HtmlTable.Cell> row = new ArrayList<>(List.of(HtmlTable.Cell.text(s.spec().name()), HtmlTable.Cell.number(Long.toString(s.batch()), s.batch()),
                        HtmlTable.Cell.number(SimulationReport.percent(s.sparsity()), s.sparsity()), HtmlTable.Cell.text(c.layerNames().get(l)),
                        w == null ? HtmlTable.Cell.text("-") : HtmlTable.Cell.number(Units.formatSeconds(w.denseSeconds()), w.denseSeconds())));
                for (String f : c.formats()) {
                    LayerEstimate e = c.estimate(s, f, l);
                    row.add(e == null ? HtmlTable.Cell.number("n/a", Double.POSITIVE_INFINITY)
                            : HtmlTable.Cell.number(Units.formatSeconds(e.predictedSeconds()), e.predictedSeconds()));
                }
                Comparison.Choice choice = c.choice(s, l);
                row.add(HtmlTable.Cell.text(choice == null ? "-" : choice.name()));
                row.add(choice == null ? HtmlTable.Cell.text("-") : HtmlTable.Cell.number(SimulationReport.times(choice.speedup()), choice.speedup()));
                t.row(row);
            }
        }
        return t;
    }
}
