package dev.sparseprof.perfmodel;

import java.util.List;

/**
 * One layer on one machine in one format, against the dense GEMM of the same layer:
 * {@code speedup = dense / predicted}, {@code theoreticalSpeedup = dense FLOPs / useful sparse
 * FLOPs} (1 for a dense layer), the gap broken down. On a CPU, {@code cpuSchedules} holds the
 * imbalance of every row schedule (static rows, nnz-balanced, merge path) for this layer, the
 * prediction using the sparse kernels' own (nnz-balanced); on a GPU it is empty.
 */
public record LayerEstimate(Workload workload, String format, Prediction predicted, Prediction dense,
                            GapBreakdown gap, double storedBytes, double denseStoredBytes, List<Balance> cpuSchedules) {
    public LayerEstimate {
        cpuSchedules = List.copyOf(cpuSchedules);
    }

    public double predictedSeconds() {
        return predicted.seconds();
    }

    public double denseSeconds() {
        return dense.seconds();
    }

    public double speedup() {
        return dense.seconds() / predicted.seconds();
    }

    public double theoreticalSpeedup() {
        return workload.nnz() == 0 ? Double.POSITIVE_INFINITY : workload.denseFlops() / workload.sparseFlops();
    }
}
