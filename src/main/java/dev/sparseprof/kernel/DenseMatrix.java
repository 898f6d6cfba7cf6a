package dev.sparseprof.kernel;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;

/**
 * A dense {@code rows x cols} fp32 matrix, row-major: the A operand of the dense GEMM baseline.
 * Invariant: {@code values.length == rows * cols}, both dimensions positive.
 */
public final class DenseMatrix {
    private final int rows;
    private final int cols;
    private final float[] values;

    /** Takes ownership of {@code values} (not copied). */
    public DenseMatrix(int rows, int cols, float[] values) {
        Checks.positive(rows, "dense matrix rows");
        Checks.positive(cols, "dense matrix cols");
        if (values.length != (long) rows * cols) {
            throw new SparseprofException("dense matrix " + rows + "x" + cols + " given " + values.length + " values");
        }
        this.rows = rows;
        this.cols = cols;
        this.values = values;
    }

    public static DenseMatrix from(MatrixView m) {
        return new DenseMatrix(m.rows(), m.cols(), m.toDense());
    }

    public int rows() { return rows; }

    public int cols() { return cols; }

    /** The backing array, for kernels: read-only by convention. */
    public float[] values() { return values; }
}
