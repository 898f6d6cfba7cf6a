package dev.sparseprof.model;

import dev.sparseprof.util.MatrixView;

/**
 * One weight seen as the sparse operand A ({@code rows x cols}, M x K) of {@code Y = A·B}, where
 * the dense operand B has {@code cols} rows and N columns, N = batch (tokens) times
 * {@code columnsPerSample} (1 for linear layers, output pixels for convolutions).
 *
 * <p>{@code name} is the layer's readable name (the consuming node when the tensor name is
 * anonymous); {@code matrix} streams A's rows whatever the tensor's storage order.
 */
public record GemmLayer(String name, String tensorName, LayerKind kind, int rows, int cols,
                        long columnsPerSample, MatrixView matrix) {
    public GemmLayer {
        if (rows <= 0 || cols <= 0) throw new ModelFormatException("layer '" + name + "': empty matrix " + rows + "x" + cols);
        if (matrix.rows() != rows || matrix.cols() != cols) {
            throw new IllegalArgumentException("layer '" + name + "': view is " + matrix.rows() + "x" + matrix.cols());
        }
        if (columnsPerSample <= 0) throw new IllegalArgumentException("columnsPerSample must be positive");
    }

    public long params() {
        return (long) rows * cols;
    }

    /** N, the dense operand's width, for a batch of {@code batch} samples (tokens). */
    public long denseColumns(long batch) {
        return batch * columnsPerSample;
    }
}
