package dev.sparseprof.measure;

/**
 * One measured kernel run: which layer, format, N, threads and partition; A's shape and entries;
 * the timing; achieved GFLOP/s ({@code 2 * nnz * N}, dense {@code 2 * M * K * N}) and effective
 * GB/s (bytes of the format + B + C over the median time); the speedup over the dense kernel on
 * the same layer (NaN until known, and for dense itself 1); how far the timing can be trusted
 * ({@link Stability}: warm-up settled, attempts, noisy).
 *
 * <p>A shape or count that cannot be is an {@link IllegalArgumentException}: the program never makes
 * one, and a reader of a file ({@link MeasurementsFile#parse}) turns it into a fault naming the file.
 */
public record Measurement(String layer, String format, int batch, int threads, String partition,
                          int rows, int cols, long nnz, double sparsity, Timing timing,
                          double gflops, double effectiveGBps, double speedupOverDense, Stability stability) {
    /** A measurement whose stability is not known (written before it was recorded). */
    public Measurement(String layer, String format, int batch, int threads, String partition, int rows, int cols, long nnz,
                       double sparsity, Timing timing, double gflops, double effectiveGBps, double speedupOverDense) {
        this(layer, format, batch, threads, partition, rows, cols, nnz, sparsity, timing, gflops, effectiveGBps, speedupOverDense,
                Stability.UNKNOWN);
    }

    public Measurement {
        if (stability == null) stability = Stability.UNKNOWN;
        if (layer == null || layer.isEmpty()) throw new IllegalArgumentException("measurement: empty layer name");
        if (batch < 1 || threads < 1 || rows < 1 || cols < 1 || nnz < 0 || nnz > (long) rows * cols) {
            throw new IllegalArgumentException("measurement of " + layer + "/" + format + ": bad shape or counts (batch " + batch + ", threads "
                    + threads + ", " + rows + "x" + cols + ", nnz " + nnz + ")");
        }
        if (!(sparsity >= 0 && sparsity <= 1)) throw new IllegalArgumentException("measurement of " + layer + "/" + format + ": sparsity " + sparsity + " outside [0, 1]");
    }

    public double medianSeconds() { return timing.medianSeconds(); }

    /** This measurement with its speedup over a dense run's median time. */
    public Measurement withDenseSeconds(double denseMedianSeconds) {
        return new Measurement(layer, format, batch, threads, partition, rows, cols, nnz, sparsity, timing, gflops,
                effectiveGBps, denseMedianSeconds / timing.medianSeconds(), stability);
    }

    public Measurement withStability(Stability s) {
        return new Measurement(layer, format, batch, threads, partition, rows, cols, nnz, sparsity, timing, gflops, effectiveGBps,
                speedupOverDense, s);
    }
}
