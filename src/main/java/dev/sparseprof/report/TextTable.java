package dev.sparseprof.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table for terminals: columns sized to their widest cell, numbers right-aligned
 * (a column is numeric when {@link #rightAligned} says so), a rule under the header.
 *
 * <pre>{@code
 * TextTable t = new TextTable("layer", "shape", "sparsity");
 * t.rightAlign(1, 2);
 * t.row("fc1", "3072x768", "90.0%");
 * out.print(t.render());
 * }</pre>
 */
public final class TextTable {
    private final String[] header;
    private final boolean[] rightAligned;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = header.clone();
        this.rightAligned = new boolean[header.length];
    }

    public TextTable rightAlign(int... columns) {
        for (int c : columns) rightAligned[c] = true;
        return this;
    }

    public TextTable row(Object... cells) {
        if (cells.length != header.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + header.length + " columns");
        }
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) r[i] = cells[i] == null ? "" : cells[i].toString();
        rows.add(r);
        return this;
    }

    /** A horizontal rule before the next row (for a totals line). */
    public TextTable rule() {
        rows.add(null);
        return this;
    }

    public String render() {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) width[i] = header[i].length();
        for (String[] r : rows) {
            if (r == null) continue;
            for (int i = 0; i < r.length; i++) width[i] = Math.max(width[i], r[i].length());
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width);
        ruleLine(sb, width);
        for (String[] r : rows) {
            if (r == null) ruleLine(sb, width);
            else line(sb, r, width);
        }
        return sb.toString();
    }

    private void line(StringBuilder sb, String[] cells, int[] width) {
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) sb.append("  ");
            String pad = " ".repeat(width[i] - cells[i].length());
            if (rightAligned[i]) sb.append(pad).append(cells[i]);
            else if (i == cells.length - 1) sb.append(cells[i]);
            else sb.append(cells[i]).append(pad);
        }
        sb.append('\n');
    }

    private static void ruleLine(StringBuilder sb, int[] width) {
        int total = 0;
        for (int w : width) total += w;
        total += 2 * (width.length - 1);
        sb.append("-".repeat(total)).append('\n');
    }
}
