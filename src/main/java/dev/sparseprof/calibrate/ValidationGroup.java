package dev.sparseprof.calibrate;

import java.util.Objects;

/**
 * A group's summary: the mean absolute percentage error over its cases and, for measured sets, the
 * share of layers whose fastest format the model names (NaN where it does not apply), and for
 * measured sets the MAPE of each sparse format's time relative to dense's in the same layer and
 * round ({@code relativeMape}, NaN where no dense run is beside it): the runs of one file go round
 * the formats one call at a time, so a change of the machine's speed between the probe and the
 * runs (the Zen 5 VM's same cases measured 0.57-1.86x apart 20 minutes later) moves every format's
 * time alike and cancels in the ratio, which is then the model's own error in what it exists to say.
 *
 * @param bestFormatCorrect layers (x batch, threads, sparsity) whose fastest format is named correctly
 * @param bestFormatGroups  layers with two or more measured formats
 */
public record ValidationGroup(String name, int cases, double mape, int bestFormatCorrect, int bestFormatGroups, String note,
                              double relativeMape) {
    /** Without a relative-to-dense error. */
    public ValidationGroup(String name, int cases, double mape, int bestFormatCorrect, int bestFormatGroups, String note) {
        this(name, cases, mape, bestFormatCorrect, bestFormatGroups, note, Double.NaN);
    }

    public ValidationGroup {
        Objects.requireNonNull(name);
        Objects.requireNonNull(note);
    }

    public double bestFormatAccuracy() {
        return bestFormatGroups == 0 ? Double.NaN : (double) bestFormatCorrect / bestFormatGroups;
    }
}
