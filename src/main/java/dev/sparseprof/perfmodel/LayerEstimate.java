package dev.sparseprof.perfmodel;

/**
 * One layer on one machine in one format, against the dense GEMM of the same layer:
 * {@code speedup = dense / predicted}, {@code theoreticalSpeedup = dense FLOPs / useful sparse
 * FLOPs} (1 for a dense layer), the gap broken down.
 */
public record LayerEstimate(Workload workload, String format, Prediction predicted, Prediction dense,
                            GapBreakdown gap, double storedBytes, double denseStoredBytes) {
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
