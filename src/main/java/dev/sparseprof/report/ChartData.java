package dev.sparseprof.report;

import dev.sparseprof.perfmodel.GapBreakdown;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.util.JsonWriter;
import java.util.List;

/**
 * The report's other charts as data for the page script: a per-layer gap waterfall with a layer
 * picker, bar charts (optionally one group per scenario, with a picker), and speedup curves.
 */
final class ChartData {
    private ChartData() {}

    /** One bar series: its name, one value per category (NaN: none), optional per-value notes. */
    record Series(String name, double[] values, List<String> notes) {
        Series {
            values = values.clone();
            notes = notes == null ? null : List.copyOf(notes);
        }
    }

    /** A group of bars: categories and series, named when the chart offers a picker over groups. */
    record Group(String name, List<String> categories, List<Series> series) {
        Group {
            categories = List.copyOf(categories);
            series = List.copyOf(series);
        }
    }

    /** A curve: its name and (x, y) points. */
    record Curve(String name, List<double[]> points) {
        Curve {
            points = List.copyOf(points);
        }
    }

    /**
     * The waterfall of each layer: its dense time beside ideal (dense / theory), each gap part in
     * words, and the predicted time; {@code notes.get(i)} says why a layer shows another format than its own (or null).
     */
    static void waterfall(JsonWriter j, String id, String title, List<LayerEstimate> layers, List<String> notes, int initial) {
        j.beginObject().field("id", id).field("kind", "waterfall").field("title", title).field("pick", "layer").field("initial", initial);
        j.name("layers").beginArray();
        for (int i = 0; i < layers.size(); i++) {
            LayerEstimate e = layers.get(i);
            GapBreakdown g = e.gap();
            j.beginObject().field("layer", e.workload().name()).field("format", e.format()).field("note", notes.get(i))
                    .field("dense", e.denseSeconds()).field("ideal", g.idealSeconds()).field("predicted", e.predictedSeconds());
            j.name("parts").beginArray();
            double[] parts = g.parts();
            for (int p = 0; p < parts.length; p++) j.beginArray().value(SimulationReport.PART_LABELS[p]).value(parts[p]).endArray();
            j.endArray().endObject();
        }
        j.endArray().endObject();
    }

    /** Bars in {@code unit} ("s": times, "%": percentages); several groups get a picker named {@code pick}. */
    static void bars(JsonWriter j, String id, String title, String subtitle, String unit, String axis, String pick, List<Group> groups) {
        j.beginObject().field("id", id).field("kind", "bars").field("title", title).field("subtitle", subtitle).field("unit", unit)
                .field("axis", axis).field("pick", pick);
        j.name("groups").beginArray();
        for (Group g : groups) {
            j.beginObject().field("name", g.name()).name("categories").beginArray();
            for (String c : g.categories()) j.value(c);
            j.endArray().name("series").beginArray();
            for (Series s : g.series()) {
                j.beginObject().field("name", s.name()).name("values").beginArray();
                for (double v : s.values()) j.value(v);
                j.endArray();
                if (s.notes() != null) {
                    j.name("notes").beginArray();
                    for (String n : s.notes()) j.value(n);
                    j.endArray();
                }
                j.endObject();
            }
            j.endArray().endObject();
        }
        j.endArray().endObject();
    }

    /** Lines through (x, y) points, with a dashed line at y = 1 (the dense time). */
    static void curves(JsonWriter j, String id, String title, String subtitle, double xMin, double xMax, List<Curve> curves) {
        j.beginObject().field("id", id).field("kind", "curves").field("title", title).field("subtitle", subtitle)
                .field("xMin", xMin).field("xMax", xMax);
        series(j, curves);
        j.endObject();
    }

    /** Lines through (x, y) points on an x axis named {@code xName} (its range from the data), y the speedup over dense. */
    static void axes(JsonWriter j, String id, String title, String subtitle, String xName, String xUnit, List<Curve> curves) {
        j.beginObject().field("id", id).field("kind", "curves").field("title", title).field("subtitle", subtitle)
                .field("xName", xName).field("xUnit", xUnit);
        series(j, curves);
        j.endObject();
    }

    /** The curves as a {@code series} array of named point lists. */
    private static void series(JsonWriter j, List<Curve> curves) {
        j.name("series").beginArray();
        for (Curve c : curves) {
            j.beginObject().field("name", c.name()).name("points").beginArray();
            for (double[] p : c.points()) j.beginArray().value(p[0]).value(p[1]).endArray();
            j.endArray().endObject();
        }
        j.endArray();
    }
}
