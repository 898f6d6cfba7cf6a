package dev.sparseprof.calibrate;

import dev.sparseprof.perfmodel.PublishedCases;
import dev.sparseprof.util.Units;
import java.nio.file.Path;
import java.util.List;

/**
 * The published cases of {@code validation/published/} (the perf engineer's file: A100 2:4 speedups,
 * Sputnik's crossover), evaluated by {@link PublishedCases} on their shipped specs (never fitted),
 * as validation cases of group {@code published <file>}.
 */
public final class PublishedValidation {
    private PublishedValidation() {}

    public static void evaluate(Path file, List<ValidationCase> cases, List<ValidationGroup> groups) {
        String group = "published " + file.getFileName();
        double sum = 0;
        int n = 0;
        for (PublishedCases.Row r : PublishedCases.evaluate(file)) {
            double err = r.error() * 100; // relative, or points for sparsities
            cases.add(new ValidationCase(r.caseName() + " " + r.metric(), group, value(r.predicted()), value(r.published()), err,
                    unitOf(r.published()), r.source()));
            if (Double.isFinite(err)) {
                sum += Math.abs(err);
                n++;
            }
        }
        groups.add(new ValidationGroup(group, n, n == 0 ? Double.NaN : sum / n, 0, 0,
                "shipped specs, not fitted (sparsity errors in points)"));
    }

    /** {@code 1.38x} -> 1.38, {@code 71%} -> 0.71, {@code 870.00 us} -> 8.7e-4 s; NaN for ranges and anything else. */
    static double value(String text) {
        String t = text.strip();
        try {
            if (t.endsWith("x") && t.indexOf('-', 1) < 0) return Double.parseDouble(t.substring(0, t.length() - 1));
            if (t.endsWith("%")) return Double.parseDouble(t.substring(0, t.length() - 1)) / 100;
            return Units.parseSeconds(t);
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    static String unitOf(String text) {
        String t = text.strip();
        if (t.endsWith("x")) return "x";
        if (t.endsWith("%")) return "sparsity";
        return "s";
    }
}
