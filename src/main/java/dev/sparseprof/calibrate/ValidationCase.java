package dev.sparseprof.calibrate;

import java.util.Objects;

/**
 * One validated figure: the model's prediction against a measured (or published) value.
 *
 * @param unit         {@code s} for times, {@code x} for speedups, {@code sparsity} for crossovers
 * @param errorPercent {@code 100 (predicted - measured) / measured}; for sparsities, the difference in points
 * @param source       provenance: the measurements file (machine, date, command) or the publication
 */
public record ValidationCase(String name, String group, double predicted, double measured, double errorPercent, String unit,
                             String source) {
    public ValidationCase {
        Objects.requireNonNull(name);
        Objects.requireNonNull(group);
        Objects.requireNonNull(unit);
        Objects.requireNonNull(source);
    }
}
