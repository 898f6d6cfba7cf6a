package dev.sparseprof.report;

import dev.sparseprof.perfmodel.PublishedCases;
import dev.sparseprof.util.JsonWriter;
import java.util.List;
import java.util.Locale;

/** Predicted vs published figures with their error, as a table and as JSON. */
public final class PublishedReport {
    private PublishedReport() {}

    public static String table(List<PublishedCases.Row> rows) {
        TextTable t = new TextTable("case", "half", "figure", "published", "predicted", "error");
        t.rightAlign(3, 4, 5);
        for (PublishedCases.Row r : rows) t.row(r.caseName(), r.fit() ? "fit" : "check", r.metric(), r.published(), r.predicted(), error(r));
        return t.render() + "errors: relative for times and speedups, in points for sparsities; sources in the JSON and the data file;"
                + " half: the fixed fit/check split (CRC32 of the ref)\n";
    }

    public static String json(List<PublishedCases.Row> rows) {
        JsonWriter j = new JsonWriter();
        j.beginObject().name("cases").beginArray();
        for (PublishedCases.Row r : rows) {
            j.beginObject().field("case", r.caseName()).field("group", r.group()).field("half", r.fit() ? "fit" : "check").field("figure", r.metric()).field("published", r.published())
                    .field("predicted", r.predicted()).field("error", r.error()).field("source", r.source()).endObject();
        }
        j.endArray().endObject();
        return j.toString();
    }

    private static String error(PublishedCases.Row r) {
        if (Double.isNaN(r.error())) return "n/a";
        return r.metric().contains("sparsity") ? String.format(Locale.ROOT, "%+.1f pts", 100 * r.error())
                : String.format(Locale.ROOT, "%+.0f%%", 100 * r.error());
    }
}
