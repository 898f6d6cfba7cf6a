package dev.sparseprof.calibrate;

import dev.sparseprof.perfmodel.PublishedCases;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The published cases of {@code validation/published/} (per-GEMM dense and 2:4 times and speedups
 * on A100 and H100, crossovers), evaluated by {@link PublishedCases} on their shipped specs and
 * runtimes, as validation cases of their own groups ({@code A100 CUTLASS}, {@code H100}, ...), and
 * summarised per group by {@link PublishedCases#summarize}: the MAPE of dense times, 2:4 times and
 * speedups, and the sign agreement.
 */
public final class PublishedValidation {
    private PublishedValidation() {}

    /** Adds every figure of {@code files} to {@code cases}, one group per published group; returns the per-group summaries. */
    public static List<PublishedCases.Summary> evaluate(List<Path> files, List<ValidationCase> cases, List<ValidationGroup> groups) {
        List<PublishedCases.Row> rows = new ArrayList<>();
        for (Path f : files) rows.addAll(PublishedCases.evaluate(f));
        Map<String, double[]> byGroup = new LinkedHashMap<>();
        for (PublishedCases.Row r : rows) {
            double err = r.error() * 100; // relative, or points for sparsities
            String half = r.fit() ? "fit half" : "check half";
            cases.add(new ValidationCase(r.caseName() + " " + r.metric(), r.group(), r.predictedValue(), r.publishedValue(), err, r.unit(),
                    r.source() + " (" + half + ")"));
            double[] s = byGroup.computeIfAbsent(r.group(), g -> new double[2]);
            if (Double.isFinite(err)) {
                s[0] += Math.abs(err);
                s[1]++;
            }
        }
        for (Map.Entry<String, double[]> e : byGroup.entrySet()) {
            int n = (int) e.getValue()[1];
            groups.add(new ValidationGroup(e.getKey(), n, n == 0 ? Double.NaN : e.getValue()[0] / n, 0, 0,
                    "published; shipped specs and runtimes (sparsity errors in points)"));
        }
        return PublishedCases.summarize(rows);
    }
}
