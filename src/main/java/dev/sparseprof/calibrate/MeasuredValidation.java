package dev.sparseprof.calibrate;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.measure.NoiseCriteria;
import dev.sparseprof.model.Model;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Validates measured CPU runs against one spec: every run predicted by the perf model, split into
 * the calibration's training and held-out halves ({@link CalibrationCases}), so a calibrated spec
 * is judged on layers its fit never saw. Groups are {@code <set> <label> training} and
 * {@code <set> <label> held-out}, each also broken down by thread count ({@code ... 1T}, {@code ... 2T})
 * when the set has several.
 */
public final class MeasuredValidation {
    private MeasuredValidation() {}

    public static void evaluate(String set, String label, List<MeasuredRuns> files, Model model, CpuSpec spec,
                                List<ValidationCase> cases, List<ValidationGroup> groups) {
        List<CalibrationCase> all = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (MeasuredRuns f : files) {
            List<CalibrationCase> cs = CalibrationCases.of(f, model);
            all.addAll(cs);
            for (int i = 0; i < cs.size(); i++) sources.add(f.source() + " (" + f.machine() + ", " + f.date() + ")");
        }
        double[] predicted = CalibrationFit.predictAll(CpuParameters.of(spec), all);
        List<CasePrediction> predictions = new ArrayList<>(all.size());
        for (int i = 0; i < all.size(); i++) predictions.add(new CasePrediction(all.get(i), predicted[i], predicted[i]));
        for (boolean training : new boolean[] {true, false}) {
            String group = set + " " + label + (training ? " training" : " held-out");
            for (int i = 0; i < predictions.size(); i++) {
                CasePrediction p = predictions.get(i);
                if (p.c().training() != training) continue;
                cases.add(new ValidationCase(p.c().run().key(), group, p.afterSeconds(), p.measuredSeconds(), p.errorPercent(true), "s",
                        sources.get(i)));
            }
            int[] best = PredictionErrors.bestFormatCounts(predictions, training, true);
            groups.add(new ValidationGroup(group, PredictionErrors.count(predictions, training),
                    PredictionErrors.mape(predictions, training, true), best[0], best[1], "spec " + spec.source() + spread(predictions, training) + imbalance(predictions, training)
                    + ties(predictions, training, best),
                    PredictionErrors.relativeToDenseMape(predictions, training, true)));
            for (int threads : threadCounts(predictions)) {
                List<CasePrediction> only = new ArrayList<>();
                for (CasePrediction p : predictions) if (p.c().run().threads() == threads) only.add(p);
                int[] b = PredictionErrors.bestFormatCounts(only, training, true);
                groups.add(new ValidationGroup(group + " " + threads + "T", PredictionErrors.count(only, training),
                        PredictionErrors.mape(only, training, true), b[0], b[1], "runs on " + threads + (threads == 1 ? " thread" : " threads")
                        + spread(only, training) + imbalance(only, training) + ties(only, training, b), PredictionErrors.relativeToDenseMape(only, training, true)));
            }
        }
    }

    /**
     * The measurements' own noise: the median over the half's runs of their repetitions' IQR /
     * median, and how many runs of FMA-bound kernels ({@code SpmmKernel.fmaBound}: the ones
     * measure judges by its canary) were timed while the FMA canary read below
     * {@link NoiseCriteria#minSpeed()} of its best in their run, where that was read.
     */
    static String spread(List<CasePrediction> predictions, boolean training) {
        List<Double> s = new ArrayList<>();
        int read = 0;
        int slow = 0;
        for (CasePrediction p : predictions) {
            if (p.c().training() != training) continue;
            double v = p.c().run().spreadPercent();
            if (!Double.isNaN(v)) s.add(v);
            double speed = p.c().run().speed();
            if (Double.isNaN(speed) || !fmaBound(p.c().run().format())) continue;
            read++;
            if (speed < NoiseCriteria.DEFAULT.minSpeed()) slow++;
        }
        String slowNote = read == 0 ? "" : String.format(Locale.ROOT, "; %d of %d dense/BSR runs timed with the FMA canary below %.2f of its best",
                slow, read, NoiseCriteria.DEFAULT.minSpeed());
        if (s.isEmpty()) return slowNote;
        s.sort(null);
        return String.format(Locale.ROOT, "; measured IQR/median %.1f%% (median run)", s.get(s.size() / 2)) + slowNote;
    }

    /**
     * Measured thread imbalance (slowest thread over the mean) above which a multi-threaded run says
     * the machine held one thread back: 1.10 on 2 threads is a thread 22 % slower than the other.
     * On the quiet VMs of 6-7 Dec 2026 (Granite Rapids, Zen 4) the 90th percentile of dense's 2-thread
     * runs, whose split is even, was 1.02-1.06, and csr's and coo's (split by non-zeros, so rows of
     * other lengths land on each thread) 1.07-1.13.
     */
    static final double HELD_BACK_IMBALANCE = 1.10;

    /**
     * {@code ; multi-threaded runs: K of M at a measured thread imbalance above 1.10 (MAPE A% against
     * B% for the rest)}: how many of the half's multi-threaded runs had one thread held back by the
     * machine, and the error on those against the others, so that a reader sees what part of a
     * 2-thread MAPE the machine's other tenants account for; empty without such runs.
     */
    static String imbalance(List<CasePrediction> predictions, boolean training) {
        int runs = 0;
        int held = 0;
        double heldError = 0;
        double restError = 0;
        for (CasePrediction p : predictions) {
            MeasuredRun r = p.c().run();
            if (p.c().training() != training || r.threads() < 2 || Double.isNaN(r.imbalance())) continue;
            runs++;
            double error = Math.abs(p.errorPercent(true));
            if (r.imbalance() > HELD_BACK_IMBALANCE) {
                held++;
                heldError += error;
            } else {
                restError += error;
            }
        }
        if (held == 0) return "";
        String rest = held == runs ? "" : String.format(Locale.ROOT, " against %.1f%% for the rest", restError / (runs - held));
        return String.format(Locale.ROOT, "; multi-threaded runs: %d of %d at a measured thread imbalance above %.2f (MAPE %.1f%%%s)", held, runs,
                HELD_BACK_IMBALANCE, heldError / held, rest);
    }

    /** Whether the kernel of a measured format is one measure's canary judges (unknown names: no). */
    private static boolean fmaBound(String format) {
        return Kernels.names().contains(format) && Kernels.byName(format).fmaBound();
    }

    /**
     * {@code ; K of the M misses within the runs' spread} ({@link PredictionErrors#bestFormatTies}): the
     * fastest-format misses the measurements themselves cannot settle; empty where nothing is missed.
     */
    static String ties(List<CasePrediction> predictions, boolean training, int[] best) {
        int misses = best[1] - best[0];
        if (misses == 0) return "";
        return String.format(Locale.ROOT, "; %d of the %d misses within the runs' spread", PredictionErrors.bestFormatTies(predictions, training, true), misses);
    }

    private static List<Integer> threadCounts(List<CasePrediction> predictions) {
        TreeSet<Integer> t = new TreeSet<>();
        for (CasePrediction p : predictions) t.add(p.c().run().threads());
        return t.size() < 2 ? List.of() : List.copyOf(t);
    }
}
