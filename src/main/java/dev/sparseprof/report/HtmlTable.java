package dev.sparseprof.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An HTML table the page's script makes sortable: numeric cells carry their value in
 * {@code data-v} (so {@code 439 us} sorts below {@code 1.20 ms}), text cells sort as text.
 */
final class HtmlTable {
    /** One cell: the text shown, and the number it sorts by (NaN: sort as text). */
    record Cell(String text, double sortValue) {
        static Cell text(String s) {
            return new Cell(s, Double.NaN);
        }

        static Cell number(String s, double v) {
            return new Cell(s, v);
        }
    }

    private final String caption;
    private final List<String> header;
    private final List<List<Cell>> rows = new ArrayList<>();

    HtmlTable(String caption, List<String> header) {
        this.caption = caption;
        this.header = List.copyOf(header);
    }

    HtmlTable row(List<Cell> cells) {
        if (cells.size() != header.size()) throw new IllegalArgumentException("row has " + cells.size() + " cells, table has " + header.size());
        rows.add(List.copyOf(cells));
        return this;
    }

    void appendTo(StringBuilder h) {
        h.append("<div class=\"table\"><table class=\"sortable\"><caption>").append(HtmlReport.esc(caption))
                .append(" <span class=\"hint\">(click a column to sort)</span></caption>\n<thead><tr>");
        for (String c : header) h.append("<th>").append(HtmlReport.esc(c)).append("</th>");
        h.append("</tr></thead>\n<tbody>\n");
        for (List<Cell> r : rows) {
            h.append("<tr>");
            for (Cell c : r) {
                if (Double.isNaN(c.sortValue())) h.append("<td>");
                else h.append("<td class=\"num\" data-v=\"").append(sortable(c.sortValue())).append("\">");
                h.append(HtmlReport.esc(c.text())).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table></div>\n");
    }

    private static String sortable(double v) {
        if (v == Double.POSITIVE_INFINITY) return "1e308";
        if (v == Double.NEGATIVE_INFINITY) return "-1e308";
        return String.format(Locale.ROOT, "%.6e", v);
    }
}
