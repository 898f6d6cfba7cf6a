package dev.sparseprof.measure.gpu;

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
 * @param medianSeconds median of the timed launches (CUDA events)
 * @param minSeconds    fastest launch
 * @param maxSeconds    slowest launch
 * @param gflops        {@code 2 x nnz x batch / medianSeconds / 1e9}
 * @param relativeError max |C - reference| / max |reference| against the CPU reference, NaN when not checked (above the settings' verification limit)
 * @param device        the GPU's name
 */
public record GpuMeasurement(String kernel, String layer, int rows, int cols, long nnz, int batch, double medianSeconds,
                             double minSeconds, double maxSeconds, double gflops, double relativeError, String device) {
    public GpuMeasurement {
        Objects.requireNonNull(kernel);
        Objects.requireNonNull(layer);
        Objects.requireNonNull(device);
        if (!(minSeconds > 0) || minSeconds > medianSeconds || medianSeconds > maxSeconds) {
            throw new IllegalArgumentException(kernel + " " + layer + ": times must satisfy 0 < min <= median <= max");
        }
    }
}
