package dev.sparseprof.calibrate;

import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.Workload;
import java.util.Objects;

/**
 * A measured run with what the model needs to predict it: the layer's workload (the same pruning
 * as the measurement, statistics of the real weights) and the format's model.
 *
 * @param training true for the half the fit sees, false for the held-out half
 * @param pruning  how the layer was pruned for the run ({@code magnitude}, {@code 2:4}, {@code none}):
 *                 formats are compared for the best one only on the same pruning
 */
public record CalibrationCase(MeasuredRun run, Workload workload, FormatModel format, boolean training, String pruning) {
    public CalibrationCase {
        Objects.requireNonNull(pruning);
        Objects.requireNonNull(run);
        Objects.requireNonNull(workload);
        Objects.requireNonNull(format);
    }
}
