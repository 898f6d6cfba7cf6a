package dev.sparseprof.report;

import dev.sparseprof.perfmodel.Comparison;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.List;

/** The {@code compare} report: per scenario, each layer's time in every format and the winner; JSON alike. */
public final class ComparisonReport {
    private ComparisonReport() {}

    public static String table(Comparison c) {
        return table(c, false);
    }

    /** One table per scenario; each fits 120 columns unless {@code wide}. */
    public static String table(Comparison c, boolean wide) {
        StringBuilder sb = new StringBuilder();
        for (Comparison.Scenario s : c.scenarios()) {
            sb.append(TextTable.wrap(s.spec().name() + " (" + s.spec().source() + "), " + s.dtype().label()
                    + ", magnitude-pruned to " + SimulationReport.percent(s.sparsity())
                    + (c.formats().contains("2:4") ? " (2:4: N:M-pruned to 50.0%)" : "")));
            List<String> header = new ArrayList<>(List.of("layer", "dense baseline"));
            header.addAll(c.formats());
            header.add("winner");
            header.add("speedup");
            TextTable t = new TextTable(header.toArray(String[]::new));
            int[] right = new int[c.formats().size() + 2];
            for (int i = 0; i < right.length; i++) right[i] = i + 1;
            t.rightAlign(right);
            t.rightAlign(header.size() - 1);
            for (int l = 0; l < c.layerNames().size(); l++) {
                List<Object> row = new ArrayList<>();
                row.add(c.layerNames().get(l));
                LayerEstimate win = c.winner(s, l);
                row.add(win == null ? "-" : Units.formatSeconds(win.denseSeconds()));
                for (String f : c.formats()) {
                    LayerEstimate e = c.estimate(s, f, l);
                    row.add(e == null ? "n/a" : Units.formatSeconds(e.predictedSeconds()));
                }
                row.add(win == null ? "-" : win.format());
                row.add(win == null ? "-" : SimulationReport.times(win.speedup()));
                t.row(row.toArray());
            }
            t.rule();
            List<Object> total = new ArrayList<>();
            total.add("total");
            total.add(Units.formatSeconds(c.denseTotalSeconds(s)));
            for (String f : c.formats()) {
                double v = c.totalSeconds(s, f);
                total.add(Double.isNaN(v) ? "n/a" : Units.formatSeconds(v));
            }
            total.add("");
            total.add("");
            t.row(total.toArray());
            sb.append(t.render(wide)).append('\n');
        }
        sb.append("n/a: the format cannot run that layer there (see the JSON 'unsupported' reasons)\n");
        return sb.toString();
    }

    public static String json(Comparison c) {
        JsonWriter j = new JsonWriter();
        j.beginObject().name("formats").beginArray();
        for (String f : c.formats()) j.value(f);
        j.endArray().name("scenarios").beginArray();
        for (Comparison.Scenario s : c.scenarios()) {
            j.beginObject().name("spec").beginObject().field("name", s.spec().name()).field("source", s.spec().source()).endObject();
            j.field("sparsity", s.sparsity()).field("dtype", s.dtype().label());
            j.name("layers").beginArray();
            for (int l = 0; l < c.layerNames().size(); l++) {
                LayerEstimate win = c.winner(s, l);
                j.beginObject().field("name", c.layerNames().get(l));
                if (win == null) j.name("winner").nullValue();
                else j.field("winner", win.format()).field("denseSeconds", win.denseSeconds()).field("speedup", win.speedup());
                j.name("estimates").beginArray();
                for (String f : c.formats()) {
                    LayerEstimate e = c.estimate(s, f, l);
                    if (e != null) EstimateJson.write(j, e);
                }
                j.endArray().name("unsupported").beginObject();
                for (String f : c.formats()) {
                    String why = c.reason(s, f, l);
                    if (why != null) j.field(f, why);
                }
                j.endObject().endObject();
            }
            j.endArray();
            j.name("totals").beginObject().field("denseBaselineSeconds", c.denseTotalSeconds(s)).name("formatSeconds").beginObject();
            for (String f : c.formats()) j.field(f, c.totalSeconds(s, f));
            j.endObject().endObject().endObject();
        }
        j.endArray().endObject();
        return j.toString();
    }
}
