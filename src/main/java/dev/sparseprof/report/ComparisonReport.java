package dev.sparseprof.report;

import dev.sparseprof.perfmodel.Comparison;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Units;
import dev.sparseprof.sparse.prune.PruneSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code compare} report: per scenario, each layer's time in every format and the winner; JSON alike. */
public final class ComparisonReport {
    private ComparisonReport() {}

    public static String table(Comparison c) {
        return table(c, false);
    }

    /**
     * One table per scenario, headed by which pruning each format was judged under and closed by a
     * totals row and a summary line (dense and winners' total time, speedup, winner counts); each
     * fits 120 columns unless {@code wide} (the layer names are shortened from the left to fit).
     */
    public static String table(Comparison c, boolean wide) {
        StringBuilder sb = new StringBuilder();
        for (Comparison.Scenario s : c.scenarios()) {
            sb.append(TextTable.wrap(s.spec().name() + " (" + s.spec().source() + "), " + s.dtype().label() + ", "
                    + s.batch() + " tokens, " + SimulationReport.percent(s.sparsity()) + " sparsity: " + prunings(c.formats(), s.sparsity())));
            List<String> header = new ArrayList<>(List.of("layer", "dense baseline"));
            header.addAll(c.formats());
            header.add("winner");
            header.add("speedup");
            List<String[]> rows = new ArrayList<>();
            for (int l = 0; l < c.layerNames().size(); l++) {
                List<String> row = new ArrayList<>();
                row.add(c.layerNames().get(l));
                LayerEstimate win = c.winner(s, l);
                row.add(win == null ? "-" : Units.formatSeconds(win.denseSeconds()));
                for (String f : c.formats()) {
                    LayerEstimate e = c.estimate(s, f, l);
                    row.add(e == null ? "n/a" : Units.formatSeconds(e.predictedSeconds()));
                }
                Comparison.Choice choice = c.choice(s, l);
                row.add(choice == null ? "-" : choice.name());
                row.add(choice == null ? "-" : SimulationReport.times(choice.speedup()));
                rows.add(row.toArray(String[]::new));
            }
            double dense = c.denseTotalSeconds(s);
            double winners = c.winnersTotalSeconds(s);
            List<String> total = new ArrayList<>();
            total.add("total");
            total.add(Units.formatSeconds(dense));
            for (String f : c.formats()) {
                double v = c.totalSeconds(s, f);
                total.add(Double.isNaN(v) ? "n/a" : Units.formatSeconds(v));
            }
            total.add(Double.isNaN(winners) ? "-" : Units.formatSeconds(winners));
            total.add(Double.isNaN(winners) ? "-" : SimulationReport.times(dense / winners));
            // Names stay whole (they are what every command prints and takes): where one does not fit
            // beside the times in 120 columns, each name gets its own line above its times.
            boolean ownLine = !wide && longestName(rows) > nameWidth(header, rows, total);
            TextTable t = new TextTable(header.toArray(String[]::new));
            int[] right = new int[header.size() - 1];
            for (int i = 0; i < right.length; i++) right[i] = i + 1;
            t.rightAlign(right);
            List<String> names = new ArrayList<>();
            for (String[] r : rows) {
                names.add(r[0]);
                if (ownLine) r[0] = "";
                t.row((Object[]) r);
            }
            t.rule();
            t.row(total.toArray());
            String rendered = t.render(wide);
            if (!ownLine) sb.append(rendered);
            else {
                String[] lines = rendered.split("\n", -1);
                for (int i = 0; i < lines.length - 1; i++) {
                    int row = i - 2;
                    if (row >= 0 && row < names.size()) sb.append(names.get(row)).append('\n');
                    sb.append(lines[i]).append('\n');
                }
            }
            sb.append(TextTable.wrap(summary(c, s, dense, winners))).append('\n');
        }
        sb.append("n/a: the format cannot run that layer there (see the JSON 'unsupported' reasons)\n");
        return sb.toString();
    }

    /** Which pruning each format is judged under, e.g. {@code dense, csr: magnitude per layer; bsr4x4: 4x4 blocks; 2:4: N:M 2:4 (50.0%)}. */
    static String prunings(List<String> formats, double sparsity) {
        Map<String, List<String>> by = new LinkedHashMap<>();
        for (String f : formats) by.computeIfAbsent(describe(Comparison.pruningOf(f, sparsity)), k -> new ArrayList<>()).add(f);
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : by.entrySet()) parts.add(String.join(", ", e.getValue()) + " on " + e.getKey());
        return String.join("; ", parts);
    }

    private static String describe(PruneSpec p) {
        return switch (p) {
            case PruneSpec.Magnitude m -> "unstructured magnitude pruning per layer";
            case PruneSpec.Block b -> b.shape().label() + " block pruning";
            case PruneSpec.Nm n -> "N:M " + n.pattern().label() + " pruning (" + SimulationReport.percent(1.0 - (double) n.pattern().n() / n.pattern().m()) + ")";
            default -> p.describe();
        };
    }

    /** The scenario's summary line: dense and winners' totals, the speedup, and how many layers each format wins. */
    static String summary(Comparison c, Comparison.Scenario s, double dense, double winners) {
        StringBuilder b = new StringBuilder("summary: dense ").append(Units.formatSeconds(dense)).append(", each layer's winner ");
        if (Double.isNaN(winners)) b.append("n/a (some layer has no format)");
        else b.append(Units.formatSeconds(winners)).append(" (").append(SimulationReport.times(dense / winners)).append(')');
        b.append("; winners:");
        for (Map.Entry<String, Integer> e : c.winnerCounts(s).entrySet()) b.append(' ').append(e.getKey()).append(' ').append(e.getValue()).append(',');
        b.setLength(b.length() - (b.charAt(b.length() - 1) == ',' ? 1 : 0));
        return b.append(" of ").append(c.layerNames().size()).append(" layers").toString();
    }

    /** The widest layer column that keeps the table within {@link TextTable#WIDTH}. */
    private static int nameWidth(List<String> header, List<String[]> rows, List<String> total) {
        int others = 0;
        for (int i = 1; i < header.size(); i++) {
            int w = Math.max(header.get(i).length(), total.get(i).length());
            for (String[] r : rows) w = Math.max(w, r[i].length());
            others += w + 2;
        }
        return TextTable.WIDTH - others;
    }

    private static int longestName(List<String[]> rows) {
        int w = "layer".length();
        for (String[] r : rows) w = Math.max(w, r[0].length());
        return w;
    }

    public static String json(Comparison c) {
        JsonWriter j = new JsonWriter();
        j.beginObject().name("formats").beginArray();
        for (String f : c.formats()) j.value(f);
        j.endArray().name("scenarios").beginArray();
        for (Comparison.Scenario s : c.scenarios()) {
            j.beginObject().name("spec").beginObject().field("name", s.spec().name()).field("source", s.spec().source()).endObject();
            j.field("sparsity", s.sparsity()).field("tokens", s.batch()).field("dtype", s.dtype().label());
            j.name("pruning").beginObject();
            for (String f : c.formats()) j.field(f, Comparison.pruningOf(f, s.sparsity()).describe());
            j.endObject();
            j.name("layers").beginArray();
            for (int l = 0; l < c.layerNames().size(); l++) {
                LayerEstimate win = c.winner(s, l);
                j.beginObject().field("name", c.layerNames().get(l));
                if (win == null) j.name("winner").nullValue();
                else {
                    Comparison.Choice choice = c.choice(s, l);
                    j.field("winner", choice.name()).field("denseSeconds", win.denseSeconds()).field("speedup", choice.speedup())
                            .field("fastestFormat", win.format());
                }
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
            double dense = c.denseTotalSeconds(s);
            double winners = c.winnersTotalSeconds(s);
            j.name("totals").beginObject().field("denseBaselineSeconds", dense).field("winnersSeconds", winners)
                    .field("speedup", dense / winners).name("formatSeconds").beginObject();
            for (String f : c.formats()) j.field(f, c.totalSeconds(s, f));
            j.endObject().name("winnerCounts").beginObject();
            for (Map.Entry<String, Integer> e : c.winnerCounts(s).entrySet()) j.field(e.getKey(), e.getValue());
            j.endObject().endObject().endObject();
        }
        j.endArray().endObject();
        return j.toString();
    }
}
