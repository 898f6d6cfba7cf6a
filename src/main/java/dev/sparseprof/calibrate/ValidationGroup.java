package dev.sparseprof.calibrate;

import java.util.Objects;

/**
 * A group's summary: the mean absolute percentage error over its cases and, for measured sets, the
 * share of layers whose fastest format the model names (NaN where it does not apply).
 *
 * @param bestFormatCorrect layers (x batch, threads, sparsity) whose fastest format is named correctly
 * @param bestFormatGroups  layers with two or more measured formats
 */
public record ValidationGroup(String name, int cases, double mape, int bestFormatCorrect, int bestFormatGroups, String note) {
    public ValidationGroup {
        Objects.requireNonNull(name);
        Objects.requireNonNull(note);
    }

    public double bestFormatAccuracy() {
        return bestFormatGroups == 0 ? Double.NaN : (double) bestFormatCorrect / bestFormatGroups;
    }
}
