package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A tensor seen as the GEMM matrix A ({@code rows x cols}) whatever its storage order: element
 * {@code (r, c)} sits at flat index {@code r*rowStride + sum(digit_k(c) * colStrides[k])}, where
 * the digits are {@code c} written in the mixed radix {@code colDims} (last digit fastest).
 *
 * <p>Row-major storage ({@code colStrides == {1}}) is the profiling hot path: fp32 rows are bulk
 * copies from the (mapped) segment. Other orders (ONNX MatMul's {@code [in, out]}, TF.js's HWIO
 * convolutions) read element by element. Integer tensors are dequantized as
 * {@code (q - zeroPoint) * scale}, so the zero point gives exactly 0.0f; per-channel quantization
 * (one scale and zero point per row of A, as ONNX's per-output-channel MatMulInteger weights have)
 * is carried by {@link RowQuantization}.
 */
final class TensorMatrix implements MatrixView {

    private final Tensor tensor;
    private final MemorySegment data;
    private final int rows;
    private final int cols;
    private final long rowStride;
    private final long[] colDims;
    private final long[] colStrides;
    private final RowQuantization rowQuantization;

    private TensorMatrix(Tensor tensor, int rows, int cols, long rowStride, long[] colDims, long[] colStrides,
                         RowQuantization rowQuantization) {
        long product = 1;
        for (long d : colDims) product *= d;
        if (product != cols || (long) rows * cols != tensor.elementCount()) {
            throw new IllegalArgumentException(tensor + " is not a " + rows + "x" + cols + " matrix");
        }
        this.tensor = tensor;
        this.data = tensor.data();
        this.rows = rows;
        this.cols = cols;
        this.rowStride = rowStride;
        this.colDims = colDims.clone();
        this.colStrides = colStrides.clone();
        if (rowQuantization != null && rowQuantization.rows() != rows) {
            throw new IllegalArgumentException(tensor + ": " + rowQuantization.rows() + " row scales for " + rows + " rows");
        }
        this.rowQuantization = rowQuantization;
    }

    /** Row r is elements {@code [r*cols, (r+1)*cols)}: PyTorch's {@code [out, in]}, conv {@code [out, in, kh, kw]}. */
    static TensorMatrix rowMajor(Tensor t, int rows, int cols) {
        return new TensorMatrix(t, rows, cols, cols, new long[] {cols}, new long[] {1}, null);
    }

    /** A over storage {@code [cols, rows]} (ONNX MatMul's {@code [in, out]}, Keras Dense kernels). */
    static TensorMatrix transposed(Tensor t, int rows, int cols) {
        return new TensorMatrix(t, rows, cols, 1, new long[] {cols}, new long[] {rows}, null);
    }

    /** A general strided view: see the class comment. */
    static TensorMatrix strided(Tensor t, int rows, int cols, long rowStride, long[] colDims, long[] colStrides) {
        if (colDims.length != colStrides.length || colDims.length == 0) throw new IllegalArgumentException("column digits");
        return new TensorMatrix(t, rows, cols, rowStride, colDims, colStrides, null);
    }

    /** The same view with one scale and zero point per row (integer tensors only). */
    TensorMatrix withRowQuantization(RowQuantization q) {
        if (tensor.dtype().isFloatingPoint()) throw new IllegalArgumentException(tensor + " is not an integer tensor");
        return new TensorMatrix(tensor, rows, cols, rowStride, colDims, colStrides, q);
    }

    Tensor tensor() {
        return tensor;
    }

    /** True when rows are contiguous in storage (the bulk-copy path). */
    boolean isRowMajor() {
        return colStrides.length == 1 && colStrides[0] == 1;
    }

    @Override
    public int rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        if (row < 0 || row >= rows) throw new IndexOutOfBoundsException("row " + row + " of " + rows);
        long base = row * rowStride;
        if (rowQuantization != null) {
            copyStrided(base, dst, offset, rowQuantization.scale(row), rowQuantization.zeroPoint(row));
        } else if (isRowMajor()) {
            copyContiguous(base, dst, offset);
        } else {
            copyStrided(base, dst, offset, Float.NaN, 0);
        }
    }

    /** Row-major fp16, bf16 and fp32 rows test their stored bits ({@link StoredBits}); other views decline. */
    @Override
    public int nonZeroBits(int row, long[] words) {
        if (rowQuantization != null || !isRowMajor()) return -1;
        if (row < 0 || row >= rows) throw new IndexOutOfBoundsException("row " + row + " of " + rows);
        long base = row * rowStride;
        return switch (tensor.dtype()) {
            case F16, BF16 -> {
                PagePopulate.ahead(data, base * 2, cols * 2L);
                yield StoredBits.halves(data, base * 2, cols, words);
            }
            case F32, TF32 -> {
                PagePopulate.ahead(data, base * 4, cols * 4L);
                yield StoredBits.singles(data, base * 4, cols, words);
            }
            default -> -1;
        };
    }

    private void copyContiguous(long base, float[] dst, int offset) {
        DType dtype = tensor.dtype();
        switch (dtype) {
            case F32, TF32 -> MemorySegment.copy(data, LittleEndian.F32, base * 4, dst, offset, cols);
            case F16 -> {
                for (int c = 0; c < cols; c++) dst[offset + c] = Float.float16ToFloat(data.getAtIndex(LittleEndian.I16, base + c));
            }
            case BF16 -> {
                for (int c = 0; c < cols; c++) dst[offset + c] = Float.intBitsToFloat((data.getAtIndex(LittleEndian.I16, base + c) & 0xffff) << 16);
            }
            case I8 -> {
                float scale = (float) tensor.scale();
                int zero = (int) tensor.zeroPoint();
                for (int c = 0; c < cols; c++) dst[offset + c] = (data.get(ValueLayout.JAVA_BYTE, base + c) - zero) * scale;
            }
            case U8 -> {
                float scale = (float) tensor.scale();
                int zero = (int) tensor.zeroPoint();
                for (int c = 0; c < cols; c++) dst[offset + c] = ((data.get(ValueLayout.JAVA_BYTE, base + c) & 0xff) - zero) * scale;
            }
            default -> {
                for (int c = 0; c < cols; c++) dst[offset + c] = tensor.getFloat(base + c);
            }
        }
    }

    /** Element by element; {@code rowScale} NaN means the tensor's own decoding (no per-row quantization). */
    private void copyStrided(long base, float[] dst, int offset, float rowScale, long rowZero) {
        if (colDims.length == 1) {
            long stride = colStrides[0];
            for (int c = 0; c < cols; c++) dst[offset + c] = decode(base + c * stride, rowScale, rowZero);
            return;
        }
        int k = colDims.length;
        long[] digit = new long[k];
        long index = base;
        for (int c = 0; c < cols; c++) {
            dst[offset + c] = decode(index, rowScale, rowZero);
            int d = k - 1;
            while (d >= 0) {
                digit[d]++;
                index += colStrides[d];
                if (digit[d] < colDims[d]) break;
                index -= digit[d] * colStrides[d];
                digit[d] = 0;
                d--;
            }
        }
    }

    private float decode(long i, float rowScale, long rowZero) {
        if (!Float.isNaN(rowScale)) return (tensor.rawLong(i) - rowZero) * rowScale;
        return tensor.dtype() == DType.F32 ? data.getAtIndex(LittleEndian.F32, i) : tensor.getFloat(i);
    }
}
