package dev.sparseprof.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table for terminals: columns sized to their widest cell, numbers right-aligned
 * (a column is numeric when {@link #rightAlign} says so), a rule under the header, no line ending
 * in spaces.
 *
 * <p>Width: {@link #render()} fits the table into {@link #WIDTH} columns by leaving out the columns
 * marked {@link #optional} (the rightmost first) and ends with one line naming what it left out;
 * {@link #render(boolean) render(true)} (the commands' {@code --wide}) shows every column.
 *
 * <pre>{@code
 * TextTable t = new TextTable("layer", "shape", "sparsity");
 * t.rightAlign(1, 2);
 * t.row("fc1", "3072x768", "90.0%");
 * out.print(t.render());
 * }</pre>
 */
public final class TextTable {
    /** The terminal width every default table fits. */
    public static final int WIDTH = 120;

    private final String[] header;
    private final boolean[] rightAligned;
    private final boolean[] optional;
    private final boolean[] wideOnly;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = header.clone();
        this.rightAligned = new boolean[header.length];
        this.optional = new boolean[header.length];
        this.wideOnly = new boolean[header.length];
    }

    public TextTable rightAlign(int... columns) {
        for (int c : columns) rightAligned[c] = true;
        return this;
    }

    /** Columns the default rendering may leave out to fit {@link #WIDTH}; {@code --wide} shows them. */
    public TextTable optional(int... columns) {
        for (int c : columns) optional[c] = true;
        return this;
    }

    /** Columns only {@code --wide} shows (few readers need them at a glance). */
    public TextTable wideOnly(int... columns) {
        for (int c : columns) wideOnly[c] = true;
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

    /** The table fitted to {@link #WIDTH} columns (see the class comment). */
    public String render() {
        return render(false);
    }

    /** Every column when {@code wide}, else the fitted table. */
    public String render(boolean wide) {
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) width[i] = header[i].length();
        for (String[] r : rows) {
            if (r == null) continue;
            for (int i = 0; i < r.length; i++) width[i] = Math.max(width[i], r[i].length());
        }
        boolean[] shown = new boolean[header.length];
        Arrays.fill(shown, true);
        List<String> hidden = new ArrayList<>();
        if (!wide) {
            for (int c = 0; c < header.length; c++) {
                if (wideOnly[c]) {
                    shown[c] = false;
                    hidden.add(header[c]);
                }
            }
            for (int c = header.length - 1; c >= 0 && total(width, shown) > WIDTH; c--) {
                if (optional[c] && shown[c]) {
                    shown[c] = false;
                    hidden.add(0, header[c]);
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width, shown);
        ruleLine(sb, total(width, shown));
        for (String[] r : rows) {
            if (r == null) ruleLine(sb, total(width, shown));
            else line(sb, r, width, shown);
        }
        if (!hidden.isEmpty()) sb.append("(--wide adds: ").append(String.join(", ", hidden)).append(")\n");
        return sb.toString();
    }

    private static int total(int[] width, boolean[] shown) {
        int total = 0;
        int n = 0;
        for (int i = 0; i < width.length; i++) {
            if (!shown[i]) continue;
            total += width[i];
            n++;
        }
        return total + 2 * Math.max(0, n - 1);
    }

    private void line(StringBuilder sb, String[] cells, int[] width, boolean[] shown) {
        int start = sb.length();
        boolean first = true;
        for (int i = 0; i < cells.length; i++) {
            if (!shown[i]) continue;
            if (!first) sb.append("  ");
            first = false;
            String pad = " ".repeat(width[i] - cells[i].length());
            if (rightAligned[i]) sb.append(pad).append(cells[i]);
            else sb.append(cells[i]).append(pad);
        }
        int end = sb.length();
        while (end > start && sb.charAt(end - 1) == ' ') end--;
        sb.setLength(end);
        sb.append('\n');
    }

    private static void ruleLine(StringBuilder sb, int total) {
        sb.append("-".repeat(total)).append('\n');
    }

    /**
     * {@code text} broken at spaces into lines of at most {@link #WIDTH} columns (a word longer than
     * that keeps its own line); every line ends with a newline and none with a space.
     */
    public static String wrap(String text) {
        StringBuilder sb = new StringBuilder();
        for (String para : text.split("\n", -1)) {
            if (para.isEmpty()) continue;
            StringBuilder line = new StringBuilder();
            for (String word : para.split(" +")) {
                if (word.isEmpty()) continue;
                if (line.length() > 0 && line.length() + 1 + word.length() > WIDTH) {
                    sb.append(line).append('\n');
                    line.setLength(0);
                    line.append("  ");
                }
                if (line.length() > 0 && !line.toString().isBlank()) line.append(' ');
                line.append(word);
            }
            if (!line.toString().isBlank()) sb.append(line).append('\n');
        }
        return sb.toString();
    }
}
