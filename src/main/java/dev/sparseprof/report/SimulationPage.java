package dev.sparseprof.report;

import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.Traffic;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code simulate --html} page: roofline, per-layer gap waterfall, times, miss rates, sparsity, the layer table. */
final class SimulationPage {
    private SimulationPage() {}

    static String build(Simulation.Result r) {
        List<LayerEstimate> es = r.layers();
        StringBuilder h = new StringBuilder();
        h.append("<p>").append(HtmlReport.esc(r.spec().name() + " (" + r.spec().source() + "), batch " + r.options().batch() + ", "
                + r.options().dtype().label() + ", " + SimulationReport.pruningLabel(r.options()) + ". Predicted "
                + Units.formatSeconds(r.predictedSeconds()) + " against " + Units.formatSeconds(r.denseSeconds()) + " dense ("
                + SimulationReport.times(r.speedup()) + ") over " + es.size() + " layers.")).append("</p>\n");
        JsonWriter j = new JsonWriter();
        j.beginObject().name("charts").beginArray();

        HtmlReport.section(h, "Roofline", "Each point is a layer at its DRAM intensity; hover for its format, time and bottleneck. "
                + "A point under a dotted overhead ceiling is bound by fixed costs (launch, per-row setup), not by a roof.");
        HtmlReport.chart(h, "roofline", 620);
        RooflineChart.write(j, "roofline", "Roofline: " + r.spec().name(), r.spec(), es, true);

        // A dense winner has no gap by definition: its waterfall shows the best sparse candidate, as the table does.
        List<LayerEstimate> gaps = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int slowest = 0;
        for (int i = 0; i < es.size(); i++) {
            LayerEstimate e = es.get(i);
            LayerEstimate s = r.bestSparse().get(i);
            boolean useSparse = e.format().equals("dense") && e.gap().largestPart() < 0 && s != null;
            gaps.add(useSparse ? s : e);
            notes.add(useSparse ? "dense wins here; this is the best sparse candidate" : null);
            if (e.predictedSeconds() > es.get(slowest).predictedSeconds()) slowest = i;
        }
        HtmlReport.section(h, "Where the gap goes, per layer", "Pick a layer: its dense time, the ideal (dense / theoretical speedup), "
                + "each cost beyond it, and the predicted time; the parts add up to predicted - ideal.");
        HtmlReport.chart(h, "waterfall", 460);
        ChartData.waterfall(j, "waterfall", "Efficiency gap", gaps, notes, slowest);

        List<String> names = new ArrayList<>();
        double[] predicted = new double[es.size()];
        double[] dense = new double[es.size()];
        List<String> formats = new ArrayList<>();
        for (int i = 0; i < es.size(); i++) {
            names.add(es.get(i).workload().name());
            predicted[i] = es.get(i).predictedSeconds();
            dense[i] = es.get(i).denseSeconds();
            formats.add(es.get(i).format());
        }
        HtmlReport.section(h, "Time per layer", null);
        HtmlReport.chart(h, "times", 520);
        ChartData.bars(j, "times", "Predicted (chosen format) and dense time per layer", null, "s", "time", null,
                List.of(new ChartData.Group(null, names, List.of(new ChartData.Series("chosen format", predicted, formats),
                        new ChartData.Series("dense", dense, null)))));

        List<String> levels = es.isEmpty() ? List.of() : es.get(0).predicted().traffic().levels();
        if (levels.size() > 1) {
            List<ChartData.Series> miss = new ArrayList<>();
            for (int l = 0; l < levels.size() - 1; l++) {
                double[] v = new double[es.size()];
                for (int i = 0; i < es.size(); i++) {
                    Traffic t = es.get(i).predicted().traffic();
                    v[i] = l < t.levels().size() - 1 ? 100 * t.missRate(l) : Double.NaN;
                }
                miss.add(new ChartData.Series(levels.get(l), v, formats));
            }
            HtmlReport.section(h, "Miss rate by cache level", "Each layer's chosen format (named in the tooltip); DRAM has no miss rate.");
            HtmlReport.chart(h, "missrates", 520);
            ChartData.bars(j, "missrates", "Miss rate by cache level, each layer's chosen format", null, "%", "miss rate (%)", null,
                    List.of(new ChartData.Group(null, names, miss)));
        }

        double[] sparsity = new double[es.size()];
        boolean anySparse = false;
        for (int i = 0; i < es.size(); i++) {
            sparsity[i] = 100 * es.get(i).workload().sparsity();
            anySparse |= sparsity[i] > 0;
        }
        HtmlReport.section(h, "Sparsity per layer", anySparse ? null
                : "Every layer is dense as stored (0% sparsity), so there is nothing to chart: --sparsity S or --nm 2:4 prunes in memory first.");
        if (anySparse) {
            HtmlReport.chart(h, "sparsity", 480);
            ChartData.bars(j, "sparsity", "Sparsity per layer", null, "%", "sparsity (%)", null,
                    List.of(new ChartData.Group(null, names, List.of(new ChartData.Series("sparsity", sparsity, null)))));
        }
        j.endArray().endObject();

        HtmlReport.section(h, "Layers", null);
        table(r).appendTo(h);
        h.append("<p class=\"note\">").append(HtmlReport.esc(String.join("; ", SimulationReport.trafficSources(es)))).append("</p>\n");
        return HtmlReport.page("sparseprof simulate: " + r.spec().name(), h, j.toString());
    }

    private static HtmlTable table(Simulation.Result r) {
        HtmlTable t = new HtmlTable("Every layer, every column (the text table's --wide)", List.of("layer", "M x K x N", "sparsity", "format",
                "predicted", "dense", "speedup", "theory", "bottleneck", "largest gap part", "miss rates", "DRAM", "imbalance", "best sparse"));
        for (int i = 0; i < r.layers().size(); i++) {
            LayerEstimate e = r.layers().get(i);
            LayerEstimate s = r.bestSparse().get(i);
            String best = s == null || s == e ? "-" : s.format() + " " + SimulationReport.times(s.speedup());
            t.row(List.of(HtmlTable.Cell.text(e.workload().name()),
                    HtmlTable.Cell.number(e.workload().rows() + "x" + e.workload().cols() + "x" + e.workload().denseColumns(), e.workload().denseFlops()),
                    HtmlTable.Cell.number(SimulationReport.percent(e.workload().sparsity()), e.workload().sparsity()),
                    HtmlTable.Cell.text(e.format()),
                    HtmlTable.Cell.number(Units.formatSeconds(e.predictedSeconds()), e.predictedSeconds()),
                    HtmlTable.Cell.number(Units.formatSeconds(e.denseSeconds()), e.denseSeconds()),
                    HtmlTable.Cell.number(SimulationReport.times(e.speedup()), e.speedup()),
                    HtmlTable.Cell.number(SimulationReport.times(e.theoreticalSpeedup()), e.theoreticalSpeedup()),
                    HtmlTable.Cell.text(e.predicted().bottleneck()),
                    HtmlTable.Cell.text(SimulationReport.largestGap(e)),
                    HtmlTable.Cell.text(SimulationReport.missRates(e.predicted().traffic())),
                    HtmlTable.Cell.number(Units.formatBytes(e.predicted().traffic().dramBytes()), e.predicted().traffic().dramBytes()),
                    HtmlTable.Cell.number(String.format(Locale.ROOT, "%.2f", e.predicted().imbalanceFactor()), e.predicted().imbalanceFactor()),
                    HtmlTable.Cell.text(best)));
        }
        return t;
    }
}
