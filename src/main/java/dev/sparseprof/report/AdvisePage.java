package dev.sparseprof.report;

import dev.sparseprof.advise.Candidate;
import dev.sparseprof.advise.LayerCurve;
import dev.sparseprof.advise.Plan;
import dev.sparseprof.advise.Point;
import dev.sparseprof.util.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code advise --html}: the crossover curves (whole-model speedup over dense vs sparsity, per
 * pattern, spec and token count: every layer the pattern can hold pruned to it, each on the
 * pattern's fastest sparse format, the others as they are) and each plan's frontier (whole-model
 * speedup vs the proxy loss the plan weighs, along the greedy walk, with the plan's own point).
 */
final class AdvisePage {
    private AdvisePage() {}

    static String build(List<Plan> plans, String model) {
        StringBuilder h = new StringBuilder();
        JsonWriter j = new JsonWriter();
        j.beginObject().name("charts").beginArray();
        HtmlReport.section(h, "Speedup over dense vs sparsity (crossover curves)", "The whole model, per pattern on each spec and token count: "
                + "every layer the pattern fits pruned to it and run on its fastest sparse format. Where a curve crosses the dashed line "
                + "the pattern starts to pay; N:M patterns have one point, at their fixed sparsity.");
        HtmlReport.chart(h, "curves", 560);
        ChartData.curves(j, "curves", "Speedup over dense vs sparsity", model + ", whole model", 0, 100, crossovers(plans));
        HtmlReport.section(h, "The plans' speedup vs proxy-loss frontier", "Each line is the greedy walk over the layers' curves, "
                + "from the model as it is to every layer at its fastest point; the single points are the plans advise chose. "
                + "The proxy is ||W-W'||/||W|| (activation-aware with --activation-norms), not an accuracy.");
        HtmlReport.chart(h, "frontier", 520);
        List<ChartData.Curve> frontier = new ArrayList<>();
        for (Plan p : plans) {
            List<double[]> pts = new ArrayList<>();
            for (double[] f : p.frontier()) pts.add(new double[] {f[0], f[1]});
            frontier.add(new ChartData.Curve(name(p), pts));
            double loss = Double.isNaN(p.activationProxyLoss()) ? p.proxyLoss() : p.activationProxyLoss();
            frontier.add(new ChartData.Curve("plan: " + name(p), List.<double[]>of(new double[] {loss, p.predictedSpeedup()})));
        }
        ChartData.axes(j, "frontier", "Speedup vs proxy loss", model, "proxy loss", "", frontier);
        j.endArray().endObject();
        HtmlReport.section(h, "The plans", null);
        h.append("<pre>").append(HtmlReport.esc(AdviseReport.table(plans))).append("</pre>\n");
        return HtmlReport.page("sparseprof advise", h, j.toString());
    }

    private static String name(Plan p) {
        return p.spec() + " at " + p.tokens();
    }

    /** Per plan and pattern: (grid sparsity in %, dense total / total with that pattern wherever it fits). */
    private static List<ChartData.Curve> crossovers(List<Plan> plans) {
        List<ChartData.Curve> out = new ArrayList<>();
        for (Plan p : plans) {
            // pattern label -> sparsity -> [dense, time] summed over layers (a layer without the point keeps its time as it is)
            Map<String, Map<Double, double[]>> sums = new LinkedHashMap<>();
            for (LayerCurve c : p.curves()) {
                for (Point pt : c.points()) {
                    Candidate cand = pt.candidate();
                    if (cand.kept() || pt.sparseFormat() == null) continue;
                    sums.computeIfAbsent(cand.patternLabel(), k -> new LinkedHashMap<>()).putIfAbsent(cand.sparsity(), new double[2]);
                }
            }
            for (Map.Entry<String, Map<Double, double[]>> e : sums.entrySet()) {
                for (Map.Entry<Double, double[]> s : e.getValue().entrySet()) {
                    for (LayerCurve c : p.curves()) {
                        Point use = c.kept();
                        double seconds = use.seconds();
                        for (Point pt : c.points()) {
                            if (!pt.candidate().kept() && pt.sparseFormat() != null && pt.candidate().patternLabel().equals(e.getKey())
                                    && pt.candidate().sparsity() == s.getKey()) {
                                use = pt;
                                seconds = pt.sparseSeconds();
                            }
                        }
                        s.getValue()[0] += use.denseSeconds();
                        s.getValue()[1] += seconds;
                    }
                }
                List<double[]> pts = new ArrayList<>();
                for (Map.Entry<Double, double[]> s : e.getValue().entrySet()) pts.add(new double[] {100 * s.getKey(), s.getValue()[0] / s.getValue()[1]});
                pts.sort((a, b) -> Double.compare(a[0], b[0]));
                out.add(new ChartData.Curve(e.getKey() + " on " + name(p), pts));
            }
        }
        return out;
    }
}
