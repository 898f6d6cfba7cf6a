package dev.sparseprof.measure.gpu;

import dev.sparseprof.measure.Timing;
import java.util.Objects;

/**
 * One timed GPU kernel run: {@code C[rows x batch] = W[rows x cols] * X[cols x batch]}.
 *
 * @param kernel        {@link GpuKernel#key()}
 * @param layer         the layer (or shape) name
 * @param rows          weight rows (M)
 * @param cols          weight columns (K)
 * @param nnz           the weight's stored non-zeros the kernel multiplies (rows x cols for dense, half for 2:4)
 * @param batch         columns of X (N)
 * @param timing        the timed launches (CUDA events): median, min, max, quartiles; imbalance 1 (one device)
 * @param gflops        {@code 2 x nnz x batch / medianSeconds / 1e9}
 * @param relativeError max |C - reference| / max |reference| against the CPU reference, NaN when not checked (above the settings' verification limit)
 * @param device        the GPU's name
 */
public record GpuMeasurement(String kernel, String layer, int rows, int cols, long nnz, int batch, Timing timing,
                             double gflops, double relativeError, String device) {
    public GpuMeasurement {
        Objects.requireNonNull(kernel);
        Objects.requireNonNull(layer);
        Objects.requireNonNull(timing);
        Objects.requireNonNull(device);
        if (!(timing.minSeconds() > 0)) throw new IllegalArgumentException(kernel + " " + layer + ": times must be positive");
    }

    public double medianSeconds() {
        return timing.medianSeconds();
    }
}
