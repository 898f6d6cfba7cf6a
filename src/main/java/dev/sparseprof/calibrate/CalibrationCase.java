package dev.sparseprof.calibrate;

import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.Workload;
import java.util.Objects;

/**
 * A measured run with what the model needs to predict it: the layer's workload (the same pruning
 * as the measurement, statistics of the real weights) and the format's model.
 *
 * @param training true for the half the fit sees, false for the held-out half
 */
public record CalibrationCase(MeasuredRun run, Workload workload, FormatModel format, boolean training) {
    public CalibrationCase {
        Objects.requireNonNull(run);
        Objects.requireNonNull(workload);
        Objects.requireNonNull(format);
    }
}
