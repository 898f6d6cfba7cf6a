package dev.sparseprof.calibrate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a fit: the parameters before and after, which were fitted and which the training
 * runs could not determine (no run bound by them), every case's predictions, and the error
 * measures on each half.
 */
public record CalibrationResult(CpuParameters before, CpuParameters after, List<FitParameter> fitted,
                                List<FitParameter> undetermined, List<CasePrediction> predictions, int evaluations,
                                int iterations) {
    public CalibrationResult {
        fitted = List.copyOf(fitted);
        undetermined = List.copyOf(undetermined);
        predictions = List.copyOf(predictions);
    }

    /** Mean absolute percentage error of the time over one half. */
    public double mape(boolean training, boolean after) {
        double sum = 0;
        int n = 0;
        for (CasePrediction p : predictions) {
            if (p.c().training() != training) continue;
            sum += Math.abs(p.errorPercent(after));
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    public int count(boolean training) {
        int n = 0;
        for (CasePrediction p : predictions) if (p.c().training() == training) n++;
        return n;
    }

    /** Share of (layer, batch, threads) groups with two or more formats whose fastest format the model names. */
    public double bestFormatAccuracy(boolean training, boolean after) {
        int[] counts = bestFormatCounts(training, after);
        return counts[1] == 0 ? Double.NaN : (double) counts[0] / counts[1];
    }

    /** {correct, groups}. */
    public int[] bestFormatCounts(boolean training, boolean after) {
        Map<String, CasePrediction[]> best = new HashMap<>(); // [measured best, predicted best]
        Map<String, Integer> sizes = new HashMap<>();
        for (CasePrediction p : predictions) {
            if (p.c().training() != training) continue;
            MeasuredRun r = p.c().run();
            String g = r.layer() + "|" + r.batch() + "|" + r.threads();
            sizes.merge(g, 1, Integer::sum);
            CasePrediction[] b = best.computeIfAbsent(g, k -> new CasePrediction[2]);
            if (b[0] == null || p.measuredSeconds() < b[0].measuredSeconds()) b[0] = p;
            double pred = after ? p.afterSeconds() : p.beforeSeconds();
            if (b[1] == null || pred < (after ? b[1].afterSeconds() : b[1].beforeSeconds())) b[1] = p;
        }
        int correct = 0;
        int groups = 0;
        for (Map.Entry<String, CasePrediction[]> e : best.entrySet()) {
            if (sizes.get(e.getKey()) < 2) continue;
            groups++;
            if (e.getValue()[0].c().run().format().equals(e.getValue()[1].c().run().format())) correct++;
        }
        return new int[] {correct, groups};
    }
}
