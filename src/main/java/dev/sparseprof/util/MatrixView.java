package dev.sparseprof.util;

/**
 * A read-only view of a {@code rows x cols} float matrix, streamed row by row.
 *
 * <p>This is the seam between {@code model} (which knows tensors, files and layouts) and
 * {@code sparse} (which knows formats and statistics): the two packages share a layer and do not
 * import each other, so the weight matrix of a GEMM layer reaches the formats through this view.
 * Row {@code r} is row {@code r} of the matrix A in {@code Y = A·B}: for a linear layer, one output
 * feature; its {@code cols} elements run along the reduction dimension K.
 *
 * <p>Contract: {@link #copyRow} fills {@code dst[offset .. offset+cols)} and touches nothing else;
 * it may be called from several threads at once for different rows; values are exact (zeros stay
 * zeros: a dequantized weight whose quantized value equals the zero point is exactly 0.0f).
 */
public interface MatrixView {
    int rows();

    int cols();

    void copyRow(int row, float[] dst, int offset);

    /**
     * The non-zero bitmap of {@code row} without decoding it, for views that can test their stored
     * bits directly (fp16/bf16/fp32 tensors): fills {@code words[0 .. (cols + 63) / 64)} (bit
     * {@code c & 63} of word {@code c >>> 6} set when element {@code c} of {@link #copyRow} would be
     * {@code != 0.0f}, so NaN is non-zero and -0.0 zero; bits past {@code cols} 0) and returns the
     * row's non-zero count. Returns -1 without touching {@code words} when the view has no such
     * path; the caller then copies the row. May be called from several threads for different rows.
     */
    default int nonZeroBits(int row, long[] words) {
        return -1;
    }

    /** Convenience for tests and small matrices: the whole matrix, row-major. */
    default float[] toDense() {
        float[] out = new float[Checks.toIntExact((long) rows() * cols(), "matrix size")];
        for (int r = 0; r < rows(); r++) copyRow(r, out, r * cols());
        return out;
    }

    /** A view over a row-major array (not copied). */
    static MatrixView of(int rows, int cols, float[] rowMajor) {
        if ((long) rows * cols != rowMajor.length) {
            throw new SparseprofException("matrix " + rows + "x" + cols + " needs " + ((long) rows * cols)
                    + " values, got " + rowMajor.length);
        }
        return new MatrixView() {
            @Override public int rows() { return rows; }
            @Override public int cols() { return cols; }
            @Override public void copyRow(int row, float[] dst, int offset) {
                System.arraycopy(rowMajor, row * cols, dst, offset, cols);
            }
            @Override public float[] toDense() { return rowMajor.clone(); }
        };
    }
}
