package dev.sparseprof.calibrate;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.perfmodel.Features;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates the GPU runner's measurements ({@code validate --gpu-measure}, synthetic MiniLM-shaped
 * weights) against a GPU spec. The weights are uniform random, so each run is modelled as a
 * {@link Workload#uniformSparse} of its shape and density; {@code dense-f16} and {@code 2:4} run in
 * fp16 on tensor cores, the others in fp32. Nothing is fitted: one group {@code <set> uncalibrated}
 * with the time MAPE and the best format per layer and batch (each format pruned its own way).
 */
public final class GpuValidation {
    private GpuValidation() {}

    public static void evaluate(String set, List<MeasuredRuns> files, GpuSpec spec, List<ValidationCase> cases,
                                List<ValidationGroup> groups) {
        PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
        List<CasePrediction> predictions = new ArrayList<>();
        String group = set + " uncalibrated";
        for (MeasuredRuns f : files) {
            if (!f.device().equals("gpu")) throw new SparseprofException(f.source() + ": not GPU measurements (device " + f.device() + ")");
            for (MeasuredRun r : f.runs()) {
                boolean half = r.format().endsWith("-f16") || r.format().equals("2:4");
                String name = r.format().endsWith("-f16") ? r.format().substring(0, r.format().length() - 4) : r.format();
                if (!FormatModels.names().contains(name)) {
                    throw new SparseprofException(f.source() + ": " + r.key() + ": format " + r.format() + " has no performance model");
                }
                double density = r.format().equals("2:4") ? 0.5 : 1.0 - r.sparsity();
                Workload w = Workload.uniformSparse(r.layer(), r.rows(), r.cols(), r.batch(), half ? DType.F16 : DType.F32, density,
                        r.format().equals("2:4"));
                CalibrationCase c = new CalibrationCase(r, w, FormatModels.byName(name), false);
                double predicted = model.predict(w, c.format(), Features.ALL).seconds();
                CasePrediction p = new CasePrediction(c, predicted, predicted);
                predictions.add(p);
                cases.add(new ValidationCase(r.key(), group, predicted, r.medianSeconds(), p.errorPercent(true), "s",
                        f.source() + " (" + f.machine() + ", " + f.date() + ")"));
            }
        }
        int[] best = PredictionErrors.bestFormatCounts(predictions, false, true, false);
        groups.add(new ValidationGroup(group, predictions.size(), PredictionErrors.mape(predictions, false, true), best[0], best[1],
                "spec " + spec.source() + "; uniform synthetic weights"));
    }
}
