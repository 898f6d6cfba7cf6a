package dev.sparseprof.calibrate;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Matches measured runs to the model's layers and builds their workloads, refusing measurements
 * that do not belong to this model (a layer it lacks, another shape, a non-zero count the same
 * pruning does not give; formats without a performance model are left out and listed by
 * {@link #unmodelled}), and splits them into a training and a held-out half: layers are grouped
 * by shape and alternate within each group in model order, so both halves hold every shape; all
 * runs of a layer (every format, batch, thread count) fall in the same half, so the best format per
 * layer is judged on layers the fit never saw.
 */
public final class CalibrationCases {
    private CalibrationCases() {}

    /**
     * The measured formats no performance model covers ({@code csr-gather}: a different loop than
     * {@code csr}), with their run counts; their runs are left out of fits and validation.
     */
    public static Map<String, Integer> unmodelled(MeasuredRuns measured) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (MeasuredRun r : measured.runs()) {
            if (!FormatModels.names().contains(r.format())) out.merge(r.format(), 1, Integer::sum);
        }
        return out;
    }

    public static List<CalibrationCase> of(MeasuredRuns measured, Model model) {
        Map<String, GemmLayer> byName = new LinkedHashMap<>();
        for (GemmLayer l : model.layers()) byName.putIfAbsent(l.name(), l);
        Map<String, Boolean> training = split(model.layers());
        Map<String, Workload> workloads = new HashMap<>();
        List<CalibrationCase> out = new ArrayList<>();
        for (MeasuredRun r : measured.runs()) {
            GemmLayer layer = byName.get(r.layer());
            if (layer == null) {
                throw new SparseprofException(measured.source() + ": layer '" + r.layer() + "' is not in " + model.source()
                        + " (measurements for another model?)");
            }
            if (layer.rows() != r.rows() || layer.cols() != r.cols()) {
                throw new SparseprofException(measured.source() + ": " + r.layer() + " was measured as " + r.rows() + "x" + r.cols()
                        + ", the model has " + layer.rows() + "x" + layer.cols());
            }
            if (!FormatModels.names().contains(r.format())) continue; // reported by unmodelled()
            FormatModel format = FormatModels.byName(r.format());
            boolean twoFour = format.name().equals("2:4");
            String key = r.layer() + "|" + r.batch() + "|" + (twoFour ? "2:4" : Double.toString(r.sparsity()));
            Workload w = workloads.computeIfAbsent(key, k -> Workloads.of(layer, r.batch(), DType.F32,
                    twoFour ? Workloads.Pruning.TWO_FOUR : r.sparsity() > 0 ? Workloads.Pruning.MAGNITUDE : Workloads.Pruning.NONE,
                    r.sparsity()));
            long expected = w.nnz();
            if (!format.name().equals("dense") && Math.abs(expected - r.nnz()) > Math.max(1, r.nnz() / 1000)) {
                throw new SparseprofException(measured.source() + ": " + r.key() + " has " + r.nnz() + " non-zeros, pruning "
                        + r.layer() + " to " + r.sparsity() + " gives " + expected + " (pruned differently, or another model?)");
            }
            out.add(new CalibrationCase(r, w, format, training.get(r.layer())));
        }
        if (out.isEmpty()) {
            throw new SparseprofException(measured.source() + ": none of the measured formats " + unmodelled(measured).keySet()
                    + " has a performance model (known: " + String.join(", ", FormatModels.names()) + ")");
        }
        return out;
    }

    /** Layer name -> training half, alternating within each shape in model order. */
    static Map<String, Boolean> split(List<GemmLayer> layers) {
        Map<String, Integer> seenPerShape = new HashMap<>();
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (GemmLayer l : layers) {
            if (out.containsKey(l.name())) continue;
            int i = seenPerShape.merge(l.rows() + "x" + l.cols(), 1, Integer::sum) - 1;
            out.put(l.name(), i % 2 == 0);
        }
        return out;
    }
}
