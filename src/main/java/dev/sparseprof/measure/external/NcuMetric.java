package dev.sparseprof.measure.external;

import dev.sparseprof.util.SparseprofException;

/**
 * One metric of one kernel launch in an {@code ncu --csv} report.
 *
 * @param name  the metric ({@code lts__t_sector_hit_rate.pct}, or a section's label such as {@code L2 Hit Rate})
 * @param unit  ncu's unit ({@code %}, {@code byte}, {@code Mbyte}, {@code usecond}, ...), possibly empty
 * @param value the number with thousands separators removed; NaN for {@code n/a} and for text values
 * @param text  the value as printed
 */
public record NcuMetric(String name, String unit, double value, String text) {
    public NcuMetric {
        if (name == null || name.isBlank()) throw new SparseprofException("ncu metric: empty name");
        if (unit == null) unit = "";
        if (text == null) text = "";
    }

    public boolean isNumeric() {
        return !Double.isNaN(value);
    }
}
