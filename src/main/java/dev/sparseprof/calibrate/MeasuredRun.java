package dev.sparseprof.calibrate;

import dev.sparseprof.util.SparseprofException;
import java.util.Objects;

/**
 * One measured kernel run as the calibration uses it: the layer's name and shape, the format, the
 * dense operand's width (batch), the threads, the measured median time, the spread of the
 * repetitions ({@code spreadPercent}: interquartile range over the median, NaN when not known) and
 * the measured thread imbalance ({@code imbalance}: median over the repetitions of the slowest
 * thread's time over the mean, 1 for one thread, NaN when not known) and the machine's speed while
 * it was timed ({@code speed}: measure's FMA canary over its best in the run, NaN when not read).
 */
public record MeasuredRun(String layer, String format, int batch, int threads, int rows, int cols, long nnz,
                          double sparsity, double medianSeconds, double spreadPercent, double imbalance, double speed) {
    /** A run without a speed reading. */
    public MeasuredRun(String layer, String format, int batch, int threads, int rows, int cols, long nnz, double sparsity,
                       double medianSeconds, double spreadPercent, double imbalance) {
        this(layer, format, batch, threads, rows, cols, nnz, sparsity, medianSeconds, spreadPercent, imbalance, Double.NaN);
    }

    /** A run without a known spread or imbalance. */
    public MeasuredRun(String layer, String format, int batch, int threads, int rows, int cols, long nnz, double sparsity,
                       double medianSeconds) {
        this(layer, format, batch, threads, rows, cols, nnz, sparsity, medianSeconds, Double.NaN, Double.NaN);
    }

    public MeasuredRun {
        Objects.requireNonNull(layer);
        Objects.requireNonNull(format);
        if (batch < 1 || threads < 1 || rows < 1 || cols < 1 || nnz < 0) {
            throw new SparseprofException("measured run " + layer + "/" + format + ": bad shape or counts");
        }
        if (!(medianSeconds > 0) || Double.isInfinite(medianSeconds)) {
            throw new SparseprofException("measured run " + layer + "/" + format + ": median time must be positive, got " + medianSeconds);
        }
        if (imbalance < 1 - 1e-9 || Double.isInfinite(imbalance)) {
            throw new SparseprofException("measured run " + layer + "/" + format + ": imbalance must be at least 1, got " + imbalance);
        }
    }

    /** {@code layer/format/n/threads}: the case name in reports. */
    public String key() {
        return layer + "/" + format + "/n" + batch + "/t" + threads;
    }
}
