package dev.sparseprof.calibrate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Error measures over one half (training or held-out) of a list of predictions, before or after a fit. */
public final class PredictionErrors {
    private PredictionErrors() {}

    /** Mean absolute percentage error of the time; NaN for an empty half. */
    public static double mape(List<CasePrediction> predictions, boolean training, boolean after) {
        double sum = 0;
        int n = 0;
        for (CasePrediction p : predictions) {
            if (p.c().training() != training) continue;
            sum += Math.abs(p.errorPercent(after));
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    public static int count(List<CasePrediction> predictions, boolean training) {
        int n = 0;
        for (CasePrediction p : predictions) if (p.c().training() == training) n++;
        return n;
    }

    /**
     * {correct, groups}: of the (layer, batch, threads, sparsity, pruning) groups holding two or more formats,
     * how many have their measured fastest format predicted fastest too.
     */
    public static int[] bestFormatCounts(List<CasePrediction> predictions, boolean training, boolean after) {
        return bestFormatCounts(predictions, training, after, true);
    }

    /** As above; {@code bySparsity} false groups by (layer, batch, threads) only (formats pruned each their own way). */
    public static int[] bestFormatCounts(List<CasePrediction> predictions, boolean training, boolean after, boolean bySparsity) {
        List<CasePrediction[]> best = bestPerGroup(predictions, training, after, bySparsity);
        int correct = 0;
        for (CasePrediction[] b : best) if (b[0].c().run().format().equals(b[1].c().run().format())) correct++;
        return new int[] {correct, best.size()};
    }

    /**
     * Of the groups whose measured fastest format the model does not name ({@link #bestFormatCounts}),
     * how many are ties the runs cannot settle: the named format's measured median lies within the
     * larger of the two runs' spread (IQR over median) of the fastest one's. A run without a known
     * spread settles nothing: such a miss is not counted.
     */
    public static int bestFormatTies(List<CasePrediction> predictions, boolean training, boolean after) {
        int ties = 0;
        for (CasePrediction[] b : bestPerGroup(predictions, training, after, true)) {
            MeasuredRun fastest = b[0].c().run();
            MeasuredRun named = b[1].c().run();
            if (fastest.format().equals(named.format())) continue;
            double spread = Math.max(fastest.spreadPercent(), named.spreadPercent()) / 100;
            if (named.medianSeconds() <= fastest.medianSeconds() * (1 + spread)) ties++;
        }
        return ties;
    }

    /**
     * Per (layer, batch, threads[, sparsity, pruning]) group of two or more formats in the half: its
     * measured fastest case and its predicted fastest case.
     */
    private static List<CasePrediction[]> bestPerGroup(List<CasePrediction> predictions, boolean training, boolean after, boolean bySparsity) {
        Map<String, CasePrediction[]> best = new HashMap<>(); // [measured fastest, predicted fastest]
        Map<String, Integer> sizes = new HashMap<>();
        for (CasePrediction p : predictions) {
            if (p.c().training() != training) continue;
            MeasuredRun r = p.c().run();
            String g = bySparsity ? groupKey(p) : r.layer() + "|" + r.batch() + "|" + r.threads();
            sizes.merge(g, 1, Integer::sum);
            CasePrediction[] b = best.computeIfAbsent(g, k -> new CasePrediction[2]);
            if (b[0] == null || p.measuredSeconds() < b[0].measuredSeconds()) b[0] = p;
            if (b[1] == null || p.predictedSeconds(after) < b[1].predictedSeconds(after)) b[1] = p;
        }
        List<CasePrediction[]> out = new ArrayList<>();
        for (Map.Entry<String, CasePrediction[]> e : best.entrySet()) if (sizes.get(e.getKey()) >= 2) out.add(e.getValue());
        return out;
    }

    /**
     * Mean absolute percentage error of each sparse format's time over dense's in its (layer, batch,
     * threads, sparsity, pruning) group, predicted against measured ({@link ValidationGroup#relativeMape});
     * NaN where no group has a dense run beside a sparse one.
     */
    public static double relativeToDenseMape(List<CasePrediction> predictions, boolean training, boolean after) {
        Map<String, CasePrediction> dense = new HashMap<>();
        for (CasePrediction p : predictions) {
            if (p.c().training() == training && p.c().run().format().equals("dense")) dense.put(groupKey(p), p);
        }
        double sum = 0;
        int n = 0;
        for (CasePrediction p : predictions) {
            if (p.c().training() != training || p.c().run().format().equals("dense")) continue;
            CasePrediction d = dense.get(groupKey(p));
            if (d == null || !(d.measuredSeconds() > 0) || !(d.predictedSeconds(after) > 0) || !(p.measuredSeconds() > 0)) continue;
            double predicted = p.predictedSeconds(after) / d.predictedSeconds(after);
            double measured = p.measuredSeconds() / d.measuredSeconds();
            sum += Math.abs(100 * (predicted / measured - 1));
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private static String groupKey(CasePrediction p) {
        MeasuredRun r = p.c().run();
        return r.layer() + "|" + r.batch() + "|" + r.threads() + "|" + r.sparsity() + "|" + p.c().pruning();
    }
}
