package dev.sparseprof.util;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on standard error, drawn only when a person is watching: when the JVM has
 * a console and the work has already taken longer than {@code quietMillis}. Redraws at most ten
 * times a second.
 */
public final class TerminalProgressBar implements Progress {
    private static final int WIDTH = 30;
    private final String label;
    private final PrintStream out;
    private final long startNanos = System.nanoTime();
    private final long quietNanos;
    private long lastDrawNanos;
    private boolean drawn;

    private TerminalProgressBar(String label, PrintStream out, long quietMillis) {
        this.label = label;
        this.out = out;
        this.quietNanos = quietMillis * 1_000_000L;
    }

    /**
     * A bar when standard error is a terminal (the launcher sets {@code SPARSEPROF_TTY=1} after
     * {@code [ -t 2 ]}), else {@link Progress#NONE}. It stays quiet for the first 1.5 s, or for
     * {@code SPARSEPROF_PROGRESS_AFTER_MS} milliseconds when that is set (the pseudo-terminal test
     * sets 0).
     */
    public static Progress forTerminal(String label) {
        if (!"1".equals(System.getenv("SPARSEPROF_TTY"))) return NONE;
        long quietMillis = 1500;
        String after = System.getenv("SPARSEPROF_PROGRESS_AFTER_MS");
        if (after != null && after.matches("[0-9]{1,7}")) quietMillis = Long.parseLong(after);
        return new TerminalProgressBar(label, System.err, quietMillis);
    }

    @Override
    public void update(long done, long total) {
        long now = System.nanoTime();
        if (now - startNanos < quietNanos || now - lastDrawNanos < 100_000_000L) return;
        lastDrawNanos = now;
        drawn = true;
        double seconds = (now - startNanos) / 1e9;
        if (total > 0) {
            double f = Math.min(1.0, (double) done / total);
            int fill = (int) (f * WIDTH);
            double eta = f > 0 ? seconds * (1 - f) / f : 0;
            out.printf(Locale.ROOT, "\r%s [%s%s] %5.1f%% %.0fs left ", label, "#".repeat(fill), ".".repeat(WIDTH - fill), f * 100, eta);
        } else {
            out.printf(Locale.ROOT, "\r%s %,d done (%.0fs) ", label, done, seconds);
        }
        out.flush();
    }

    @Override
    public void finish() {
        if (drawn) {
            out.print("\r" + " ".repeat(label.length() + WIDTH + 30) + "\r");
            out.flush();
        }
    }
}
