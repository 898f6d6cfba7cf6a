package dev.sparseprof.report;

import java.util.List;

/** RFC 4180 CSV: a header line, then rows; cells with commas, quotes or newlines are quoted. */
public final class Csv {
    private final StringBuilder out = new StringBuilder();
    private final int columns;

    public Csv(List<String> header) {
        this.columns = header.size();
        line(header.toArray());
    }

    public Csv row(Object... cells) {
        if (cells.length != columns) throw new IllegalArgumentException("row has " + cells.length + " cells, need " + columns);
        line(cells);
        return this;
    }

    @Override
    public String toString() {
        return out.toString();
    }

    private void line(Object[] cells) {
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) out.append(',');
            String s = cells[i] == null ? "" : cells[i].toString();
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0) {
                out.append('"').append(s.replace("\"", "\"\"")).append('"');
            } else {
                out.append(s);
            }
        }
        out.append("\r\n");
    }
}
