package dev.sparseprof.calibrate;

import dev.sparseprof.util.SparseprofException;
import java.util.Objects;

/**
 * One measured kernel run as the calibration uses it: the layer's name and shape, the format, the
 * dense operand's width (batch), the threads and the measured median time.
 */
public record MeasuredRun(String layer, String format, int batch, int threads, int rows, int cols, long nnz,
                          double sparsity, double medianSeconds) {
    public MeasuredRun {
        Objects.requireNonNull(layer);
        Objects.requireNonNull(format);
        if (batch < 1 || threads < 1 || rows < 1 || cols < 1 || nnz < 0) {
            throw new SparseprofException("measured run " + layer + "/" + format + ": bad shape or counts");
        }
        if (!(medianSeconds > 0) || Double.isInfinite(medianSeconds)) {
            throw new SparseprofException("measured run " + layer + "/" + format + ": median time must be positive, got " + medianSeconds);
        }
    }

    /** {@code layer/format/n/threads}: the case name in reports. */
    public String key() {
        return layer + "/" + format + "/n" + batch + "/t" + threads;
    }
}
