package dev.sparseprof.report;

import dev.sparseprof.advise.LayerCurve;
import dev.sparseprof.advise.Pattern;
import dev.sparseprof.advise.Plan;
import dev.sparseprof.advise.Point;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code advise}'s output: per plan a summary line, a table of groups of equal layers (the same
 * name up to its digits and the same choice) and one line per group left as it is with why; the
 * JSON holds every plan, every layer's choice and every layer's curves (speedup per pattern and
 * sparsity, break-even sparsity, best pattern).
 */
public final class AdviseReport {
    private AdviseReport() {}

    private static final int NAME_WIDTH = 30;

    public static String table(List<Plan> plans) {
        StringBuilder b = new StringBuilder();
        for (Plan p : plans) {
            String head = String.format(Locale.ROOT, "%s at %d tokens: %s predicted (dense %s -> %s), proxy loss %.3f (||W-W'||/||W||, not an accuracy)",
                    p.spec(), p.tokens(), SimulationReport.times(p.predictedSpeedup()), Units.formatSeconds(p.denseSeconds()),
                    Units.formatSeconds(p.predictedSeconds()), p.proxyLoss());
            if (!Double.isNaN(p.activationProxyLoss())) {
                head += String.format(Locale.ROOT, ", activation-aware %.3f (||(W-W')diag(|x|)||/||W diag(|x|)||; pruned by Wanda's |W|*|x|)",
                        p.activationProxyLoss());
            }
            b.append(TextTable.wrap(head));
            TextTable t = new TextTable("layers", "n", "shape", "pattern", "s", "format", "speedup", "proxy", "break-even", "best alone");
            t.rightAlign(1, 4, 6, 7, 8);
            List<String> notes = new ArrayList<>();
            for (List<Integer> g : groups(p)) {
                Plan.Choice c = p.layers().get(g.get(0));
                LayerCurve curve = p.curves().get(g.get(0));
                double dense = 0;
                double time = 0;
                double proxy = 0;
                for (int i : g) {
                    dense += p.layers().get(i).point().denseSeconds();
                    time += p.layers().get(i).point().seconds();
                    Plan.Choice ci = p.layers().get(i);
                    // The proxy the plan weighs: activation-aware where norms were given.
                    proxy = Math.max(proxy, Double.isNaN(ci.activationProxyLoss()) ? ci.proxyLoss() : ci.activationProxyLoss());
                }
                Point best = curve.fastest();
                Pattern pat = c.point().candidate().kept() ? best.candidate().pattern() : c.point().candidate().pattern();
                double be = pat == null ? Double.NaN : curve.breakEven(pat);
                String label = shorten(groupName(c.name(), g.size()));
                t.row(label, g.size(), curve.layer().layer().rows() + "x" + curve.layer().layer().cols(), c.pattern(),
                        c.point().candidate().kept() ? "-" : pct(c.sparsity()), c.format(), SimulationReport.times(dense / time),
                        String.format(Locale.ROOT, "%.3f", proxy),
                        pat == null ? "-" : (Double.isNaN(be) ? "none" : pat.label() + " " + pct(be)),
                        best.candidate().patternLabel() + " " + SimulationReport.times(best.speedup()));
                if (c.reason() != null) notes.add("  " + label + ": " + c.reason());
            }
            b.append(t.render());
            if (!notes.isEmpty()) b.append("left as they are:\n").append(String.join("\n", notes)).append('\n');
        }
        return b.toString();
    }

    private static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * f);
    }

    private static String shorten(String s) {
        return s.length() <= NAME_WIDTH ? s : "..." + s.substring(s.length() - NAME_WIDTH + 3);
    }

    private static String groupName(String name, int size) {
        return size == 1 ? name : name.replaceAll("\\d+", "*");
    }

    /** Indices of layers grouped by name-without-digits, shape and choice, in first-seen order. */
    static List<List<Integer>> groups(Plan p) {
        Map<String, List<Integer>> m = new LinkedHashMap<>();
        for (int i = 0; i < p.layers().size(); i++) {
            Plan.Choice c = p.layers().get(i);
            LayerCurve curve = p.curves().get(i);
            String key = c.name().replaceAll("\\d+", "*") + "|" + curve.layer().layer().rows() + "x" + curve.layer().layer().cols()
                    + "|" + c.pattern() + "|" + c.sparsity() + "|" + c.format() + "|" + (c.reason() == null ? "" : c.reason().replaceAll("[0-9.]+", ""));
            m.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(m.values());
    }

    public static String json(List<Plan> plans, String model, String recipeNote) {
        JsonWriter j = new JsonWriter().beginObject();
        j.field("model", model);
        if (recipeNote != null) j.field("recipe", recipeNote);
        j.name("plans").beginArray();
        for (Plan p : plans) {
            j.beginObject().field("spec", p.spec()).field("tokens", p.tokens()).field("predictedSpeedup", p.predictedSpeedup())
                    .field("proxyLoss", p.proxyLoss());
            nullable(j, "activationProxyLoss", p.activationProxyLoss());
            j.field("criterion", Double.isNaN(p.activationProxyLoss()) ? "magnitude" : "wanda")
                    .field("denseSeconds", p.denseSeconds()).field("predictedSeconds", p.predictedSeconds());
            j.name("layers").beginArray();
            for (Plan.Choice c : p.layers()) {
                j.beginObject().field("name", c.name()).field("pattern", c.pattern()).field("sparsity", c.sparsity())
                        .field("format", c.format()).field("speedup", c.speedup()).field("proxyLoss", c.proxyLoss())
                        .field("predictedSeconds", c.point().seconds()).field("denseSeconds", c.point().denseSeconds());
                nullable(j, "activationProxyLoss", c.activationProxyLoss());
                if (c.reason() == null) j.name("reason").nullValue();
                else j.field("reason", c.reason());
                j.endObject();
            }
            j.endArray();
            j.name("frontier").beginArray();
            for (double[] f : p.frontier()) j.beginObject().field("proxyLoss", f[0]).field("speedup", f[1]).endObject();
            j.endArray();
            j.name("curves").beginArray();
            for (LayerCurve curve : p.curves()) curve(j, curve);
            j.endArray();
            j.endObject();
        }
        j.endArray().endObject();
        return j.toString() + "\n";
    }

    private static void nullable(JsonWriter j, String name, double v) {
        if (Double.isNaN(v)) j.name(name).nullValue();
        else j.field(name, v);
    }

    private static void curve(JsonWriter j, LayerCurve curve) {
        j.beginObject().field("name", curve.layer().name());
        Point best = curve.fastest();
        j.field("bestPattern", best.candidate().patternLabel()).field("bestSparsity", best.candidate().sparsity()).field("bestSpeedup", best.speedup());
        Set<Pattern> patterns = new LinkedHashSet<>();
        for (Point p : curve.points()) if (!p.candidate().kept()) patterns.add(p.candidate().pattern());
        j.name("patterns").beginArray();
        for (Pattern pat : patterns) {
            double be = curve.breakEven(pat);
            j.beginObject().field("pattern", pat.label());
            if (Double.isNaN(be)) j.name("breakEvenSparsity").nullValue();
            else j.field("breakEvenSparsity", be);
            j.name("points").beginArray();
            for (Point p : curve.points()) {
                if (p.candidate().kept() || !p.candidate().pattern().equals(pat)) continue;
                j.beginObject().field("sparsity", p.candidate().sparsity()).field("format", p.format()).field("speedup", p.speedup())
                        .field("sparseFormat", p.sparseFormat() == null ? "" : p.sparseFormat())
                        .field("sparseSpeedup", p.sparseFormat() == null ? 0 : p.sparseSpeedup())
                        .field("proxyLoss", p.candidate().proxyLoss());
                nullable(j, "activationProxyLoss", p.candidate().activationProxyLoss());
                j.endObject();
            }
            j.endArray().endObject();
        }
        j.endArray();
        j.name("impossible").beginObject();
        for (Map.Entry<String, String> e : curve.layer().impossible().entrySet()) j.field(e.getKey(), e.getValue());
        j.endObject().endObject();
    }
}
