package dev.sparseprof.report;

import dev.sparseprof.perfmodel.Comparison;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.Units;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;

/**
 * One self-contained HTML file (charts as embedded base64 PNG, no scripts, no external links) for
 * a simulate or compare run, written atomically.
 */
public final class HtmlReport {
    private HtmlReport() {}

    public static void writeSimulation(Path file, Simulation.Result r) {
        AtomicFiles.writeString(file, simulation(r));
    }

    public static void writeComparison(Path file, Comparison c) {
        AtomicFiles.writeString(file, comparison(c));
    }

    static String simulation(Simulation.Result r) {
        StringBuilder h = new StringBuilder();
        head(h, "sparseprof simulate: " + r.spec().name());
        h.append("<p>").append(esc(r.spec().name())).append(" (").append(esc(r.spec().source())).append("), batch ")
                .append(r.options().batch()).append(", ").append(r.options().dtype().label()).append(", ")
                .append(esc(SimulationReport.pruningLabel(r.options()))).append(". Total predicted ")
                .append(Units.formatSeconds(r.predictedSeconds())).append(" vs dense ").append(Units.formatSeconds(r.denseSeconds()))
                .append(" (").append(SimulationReport.times(r.speedup())).append(").</p>\n");
        h.append("<pre>").append(esc(SimulationReport.table(r))).append("</pre>\n");
        List<LayerEstimate> es = r.layers();
        List<String> names = new ArrayList<>();
        double[][] seconds = new double[2][es.size()];
        for (int i = 0; i < es.size(); i++) {
            names.add(es.get(i).workload().name());
            seconds[0][i] = es.get(i).predictedSeconds();
            seconds[1][i] = es.get(i).denseSeconds();
        }
        image(h, Charts.roofline(r.spec(), es));
        image(h, Charts.sparsity(es));
        image(h, Charts.missRates(es));
        image(h, Charts.times("Predicted (chosen format) vs dense per layer", names, List.of("predicted", "dense"), seconds));
        // A dense winner has no gap by definition: the waterfall shows its best sparse candidate, as the table does.
        List<LayerEstimate> gaps = new ArrayList<>(es.size());
        boolean substituted = false;
        for (int i = 0; i < es.size(); i++) {
            LayerEstimate e = es.get(i);
            LayerEstimate s = r.bestSparse().get(i);
            boolean useSparse = e.format().equals("dense") && e.gap().largestPart() < 0 && s != null;
            gaps.add(useSparse ? s : e);
            substituted |= useSparse;
        }
        image(h, Charts.gapWaterfall("Efficiency gap, whole model: ideal to predicted"
                + (substituted ? " (best sparse candidate where dense wins)" : ""), gaps));
        tail(h);
        return h.toString();
    }

    static String comparison(Comparison c) {
        StringBuilder h = new StringBuilder();
        head(h, "sparseprof compare");
        h.append("<pre>").append(esc(ComparisonReport.table(c))).append("</pre>\n");
        for (Comparison.Scenario s : c.scenarios()) {
            List<String> layers = c.layerNames();
            List<String> formats = c.formats();
            double[][] seconds = new double[formats.size()][layers.size()];
            for (int f = 0; f < formats.size(); f++) {
                for (int l = 0; l < layers.size(); l++) {
                    LayerEstimate e = c.estimate(s, formats.get(f), l);
                    seconds[f][l] = e == null ? Double.NaN : e.predictedSeconds();
                }
            }
            image(h, Charts.times("Formats on " + s.spec().name() + " at " + SimulationReport.percent(s.sparsity()) + " sparsity",
                    layers, formats, seconds));
        }
        List<LayerEstimate> winners = c.winnersOfLastScenario();
        if (!winners.isEmpty()) {
            Comparison.Scenario last = c.scenarios().get(c.scenarios().size() - 1);
            image(h, Charts.roofline(last.spec(), winners));
            image(h, Charts.sparsity(winners));
            image(h, Charts.missRates(winners));
            image(h, Charts.gapWaterfall("Efficiency gap of the winners on " + last.spec().name() + " at "
                    + SimulationReport.percent(last.sparsity()), winners));
        }
        tail(h);
        return h.toString();
    }

    private static void head(StringBuilder h, String title) {
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1200px}pre{font-size:11px;overflow-x:auto;"
                        + "background:#f6f6f6;padding:1em}img{display:block;margin:1.5em 0;max-width:100%}</style></head><body>\n<h1>")
                .append(esc(title)).append("</h1>\n");
    }

    private static void tail(StringBuilder h) {
        h.append("<p style=\"color:#666\">Generated by sparseprof. Memory traffic labelled 'analytical' comes from the capacity model, "
                + "not a simulated trace; overheads and several bandwidths in the bundled specs are marked U (unverified) there.</p>\n"
                + "</body></html>\n");
    }

    private static void image(StringBuilder h, JFreeChart chart) {
        h.append(String.format(Locale.ROOT, "<img alt=\"%s\" width=\"%d\" height=\"%d\" src=\"data:image/png;base64,",
                esc(chart.getTitle() == null ? "chart" : chart.getTitle().getText()), Charts.WIDTH, Charts.HEIGHT));
        h.append(Charts.png(chart)).append("\">\n");
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
