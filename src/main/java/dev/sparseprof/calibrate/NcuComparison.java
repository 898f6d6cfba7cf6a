package dev.sparseprof.calibrate;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.measure.external.NcuKernelSummary;
import dev.sparseprof.measure.external.NcuReport;
import dev.sparseprof.measure.gpu.GpuCase;
import dev.sparseprof.measure.gpu.GpuKernel;
import dev.sparseprof.perfmodel.Features;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Nsight Compute's view of the project's kernels beside the model's: the report of
 * {@code validation/gpu/run.sh} profiles one launch of each quick GPU case in case order, so the
 * i-th launch of one of the project's kernels is the i-th case. Per case: L1 and L2 hit rates
 * (measured sector hit rate against 1 - the model's byte miss rate; error in points), DRAM bytes
 * and duration (relative error), each in its own group {@code ncu <metric>}.
 */
public final class NcuComparison {
    private NcuComparison() {}

    public static void evaluate(NcuReport report, List<GpuCase> cases, GpuSpec spec, List<ValidationCase> out,
                                List<ValidationGroup> groups) {
        List<NcuKernelSummary> ours = new ArrayList<>();
        for (NcuKernelSummary s : report.summaries()) {
            for (GpuKernel k : GpuKernel.values()) {
                if (k.entry().equals(s.kernelName())) {
                    ours.add(s);
                    break;
                }
            }
        }
        if (ours.size() != cases.size()) {
            throw new SparseprofException(report.source() + ": " + ours.size() + " launches of the project's kernels, the quick GPU set has "
                    + cases.size() + " cases (profile validate --gpu-measure --gpu-quick --gpu-reps 1 --gpu-warmup 0)");
        }
        PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
        String[] metrics = {"L1 hit", "L2 hit", "DRAM bytes", "duration"};
        double[] sums = new double[metrics.length];
        int[] counts = new int[metrics.length];
        for (int i = 0; i < cases.size(); i++) {
            GpuCase c = cases.get(i);
            NcuKernelSummary m = ours.get(i);
            if (!m.kernelName().equals(c.kernel().entry())) {
                throw new SparseprofException(report.source() + ": launch " + m.id() + " is " + m.kernelName() + ", case " + c.name()
                        + " runs " + c.kernel().entry() + " (launches out of case order)");
            }
            Prediction p = model.predict(workload(c), FormatModels.byName(formatOf(c.kernel())), Features.ALL);
            OptionalDouble[] measured = {m.l1HitPercent(), m.l2HitPercent(), m.dramBytes(), m.durationSeconds()};
            double[] predicted = {100 * (1 - p.traffic().missRate(0)), 100 * (1 - p.traffic().missRate(1)), p.traffic().dramBytes(),
                    p.seconds()};
            for (int j = 0; j < metrics.length; j++) {
                if (measured[j].isEmpty()) continue;
                double v = measured[j].getAsDouble();
                boolean points = j < 2;
                double err = points ? predicted[j] - v : 100 * (predicted[j] - v) / v;
                out.add(new ValidationCase(c.name() + " " + metrics[j], "ncu " + metrics[j], predicted[j], v, err,
                        points ? "%" : j == 2 ? "B" : "s", report.source() + " launch " + m.id()));
                sums[j] += Math.abs(err);
                counts[j]++;
            }
        }
        for (int j = 0; j < metrics.length; j++) {
            groups.add(new ValidationGroup("ncu " + metrics[j], counts[j], counts[j] == 0 ? Double.NaN : sums[j] / counts[j], 0, 0,
                    (j < 2 ? "error in points" : "relative error") + "; spec " + spec.source() + ", analytical traffic"));
        }
    }

    static Workload workload(GpuCase c) {
        boolean half = c.kernel() == GpuKernel.DENSE_MMA_F16 || c.kernel() == GpuKernel.SPARSE24_MMA;
        boolean twoFour = c.kernel() == GpuKernel.SPARSE24_MMA;
        double density = twoFour ? 0.5 : 1 - c.sparsity();
        return Workload.uniformSparse(c.name(), c.rows(), c.cols(), c.batch(), half ? DType.F16 : DType.F32, density, twoFour);
    }

    static String formatOf(GpuKernel k) {
        return switch (k) {
            case CSR_ROWSPLIT -> "csr";
            case BSR -> "bsr4x4";
            case DENSE_TILED, DENSE_MMA_F16 -> "dense";
            case SPARSE24_MMA -> "2:4";
        };
    }
}
