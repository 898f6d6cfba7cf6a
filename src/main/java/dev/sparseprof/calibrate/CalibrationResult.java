package dev.sparseprof.calibrate;

import java.util.List;

/**
 * The outcome of a fit: the parameters before and after, which were fitted and which the training
 * runs could not determine (no run bound by them), the bandwidths it drove without bound (kept at
 * their start), every case's predictions, the error
 * measures on each half, and the imbalance penalty's own fit to the measured thread imbalance.
 */
public record CalibrationResult(CpuParameters before, CpuParameters after, List<FitParameter> fitted,
                                List<FitParameter> undetermined, List<FitParameter> unbounded, List<CasePrediction> predictions, int evaluations,
                                int iterations, ImbalanceFit imbalance) {
    public CalibrationResult {
        fitted = List.copyOf(fitted);
        undetermined = List.copyOf(undetermined);
        unbounded = List.copyOf(unbounded);
        predictions = List.copyOf(predictions);
    }

    /** Mean absolute percentage error of the time over one half. */
    public double mape(boolean training, boolean after) {
        return PredictionErrors.mape(predictions, training, after);
    }

    public int count(boolean training) {
        return PredictionErrors.count(predictions, training);
    }

    /** {correct, groups} of the best-format choice over one half ({@link PredictionErrors#bestFormatCounts}). */
    public int[] bestFormatCounts(boolean training, boolean after) {
        return PredictionErrors.bestFormatCounts(predictions, training, after);
    }
}
