package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.lang.foreign.MemorySegment;

/**
 * One weight seen as the sparse operand A ({@code rows x cols}, M x K) of {@code Y = A·B}, where
 * the dense operand B has {@code cols} rows and N columns, N = batch (tokens) times
 * {@code columnsPerSample} (1 for linear layers, output pixels for convolutions).
 *
 * <p>{@code name} is the layer's readable name (the consuming node when the tensor name is
 * anonymous); {@code matrix} streams A's rows whatever the tensor's storage order.
 *
 * <p>{@code groups > 1} (a grouped or depthwise convolution) means the layer is that many
 * independent GEMMs, each of {@code rows/groups} consecutive rows of A times its own B
 * ({@code cols x N}); {@link #group(int)} gives one of them. FLOPs are {@code rows·cols·N} either
 * way. {@code depthwise} says each group reduces over one input channel only, so K = kh·kw (or
 * 1 for a ConvTranspose): N:M patterns along K do not apply there.
 *
 * <p>{@code storedDType} is the weight's dtype in the file (int8 for an ONNX MatMulInteger weight,
 * uint8 for a quantized TF.js filter, bf16 for a bf16 checkpoint), whatever the view decodes it to;
 * it is the default value type of the commands that price the layer. A block-quantized weight
 * (GGUF Q4_0, MXFP4, MatMulNBits) is priced in the type its kernels multiply in (int8, uint8) and
 * weighs what its encoding stores ({@link #storedBitsPerWeight}).
 *
 * <p>{@code tokenShare} is the share of a batch's tokens the layer multiplies: 1, or {@code k / E}
 * for a routed expert of a mixture of experts ({@link #denseColumns}).
 */
public record GemmLayer(String name, String tensorName, LayerKind kind, int rows, int cols,
                        long columnsPerSample, MatrixView matrix, int groups, boolean depthwise, DType storedDType, double tokenShare) {
    public GemmLayer {
        if (rows <= 0 || cols <= 0) throw new ModelFormatException("layer '" + name + "': empty matrix " + rows + "x" + cols);
        if (matrix.rows() != rows || matrix.cols() != cols) {
            throw new IllegalArgumentException("layer '" + name + "': view is " + matrix.rows() + "x" + matrix.cols());
        }
        if (columnsPerSample <= 0) throw new IllegalArgumentException("columnsPerSample must be positive");
        if (groups <= 0 || rows % groups != 0) throw new IllegalArgumentException("layer '" + name + "': " + rows + " rows in " + groups + " groups");
        if (storedDType == null) throw new IllegalArgumentException("layer '" + name + "': no stored dtype");
        if (!(tokenShare > 0 && tokenShare <= 1)) throw new IllegalArgumentException("layer '" + name + "': token share " + tokenShare);
    }

    /** A layer that every token passes through ({@link #tokenShare} 1). */
    public GemmLayer(String name, String tensorName, LayerKind kind, int rows, int cols, long columnsPerSample, MatrixView matrix,
                     int groups, boolean depthwise, DType storedDType) {
        this(name, tensorName, kind, rows, cols, columnsPerSample, matrix, groups, depthwise, storedDType, 1.0);
    }

    /** An ungrouped layer whose stored dtype is the view's tensor's (fp32 for other views). */
    public GemmLayer(String name, String tensorName, LayerKind kind, int rows, int cols, long columnsPerSample, MatrixView matrix) {
        this(name, tensorName, kind, rows, cols, columnsPerSample, matrix, 1, false, storedOf(matrix));
    }

    private static DType storedOf(MatrixView matrix) {
        return matrix instanceof TensorMatrix t ? t.tensor().dtype() : DType.F32;
    }

    /**
     * The bits per weight the file stores: the encoding's, scales included, for a block-quantized
     * view (4.5 for GGUF Q4_0, 4.25 for MXFP4), else the stored dtype's.
     */
    public double storedBitsPerWeight() {
        return matrix instanceof EncodedWeights e ? e.storedBitsPerWeight() : storedDType.bits();
    }

    public long params() {
        return (long) rows * cols;
    }

    /**
     * N, the dense operand's width, for a batch of {@code batch} samples (tokens): of a routed
     * expert's, the tokens it multiplies when it runs (its share over {@link #activeShare}, at least one).
     */
    public long denseColumns(long batch) {
        long n = batch * columnsPerSample;
        return tokenShare >= 1 ? n : Math.max(1, Math.round(n * tokenShare / activeShare(batch)));
    }

    /**
     * The probability that this layer runs at all in a batch of {@code batch} samples: 1, or for a
     * routed expert {@code 1 - (1 - k/E)^N}, the chance that at least one of the N tokens picks it
     * (uniform routing). A decode step of one token runs k of E experts, and reads only their weights;
     * when it runs, the expert multiplies {@code N·(k/E)} tokens over that chance ({@link #denseColumns}).
     */
    public double activeShare(long batch) {
        if (tokenShare >= 1) return 1;
        double n = (double) batch * columnsPerSample;
        return Math.max(Double.MIN_NORMAL, -Math.expm1(n * Math.log1p(-tokenShare)));
    }

    /** The same layer with another N per sample (an input shape given on the command line). */
    public GemmLayer withColumnsPerSample(long columns) {
        return new GemmLayer(name, tensorName, kind, rows, cols, columns, matrix, groups, depthwise, storedDType, tokenShare);
    }

    /**
     * The same layer seeing {@code share} of the batch's tokens: a mixture-of-experts expert, to
     * which the router sends top-k of E experts' worth ({@code k / E}, uniform routing).
     */
    public GemmLayer withTokenShare(double share) {
        return new GemmLayer(name, tensorName, kind, rows, cols, columnsPerSample, matrix, groups, depthwise, storedDType, share);
    }

    /** Group {@code g}'s GEMM: rows {@code [g·rows/groups, (g+1)·rows/groups)} of A, named {@code name[g]}. */
    public GemmLayer group(int g) {
        if (g < 0 || g >= groups) throw new IndexOutOfBoundsException("group " + g + " of " + groups);
        if (groups == 1) return this;
        int per = rows / groups;
        MatrixView rowsOfGroup = new MatrixView() {
            @Override public int rows() { return per; }
            @Override public int cols() { return cols; }
            @Override public void copyRow(int row, float[] dst, int offset) {
                if (row < 0 || row >= per) throw new IndexOutOfBoundsException("row " + row + " of " + per);
                matrix.copyRow(g * per + row, dst, offset);
            }
        };
        return new GemmLayer(name + "[" + g + "]", tensorName, kind, per, cols, columnsPerSample, rowsOfGroup, 1, depthwise, storedDType, tokenShare);
    }

    /**
     * Writes the stored zero into {@code target} (laid out like this layer's tensor) wherever
     * {@code pruned}, A row-major after pruning, holds 0.0f; see {@link TensorMatrix#writeZeros}.
     * Only layers read from a file's tensor can be written back.
     */
    public long writeZeros(float[] pruned, MemorySegment target) {
        if (!(matrix instanceof TensorMatrix t)) throw new IllegalStateException("layer '" + name + "' is not a view of a stored tensor");
        return t.writeZeros(pruned, target);
    }

    /** True when A is its whole tensor stored row-major (C order), unquantized: its stored bytes are A's rows in order. */
    public boolean wholeRowMajorTensor() {
        return matrix instanceof TensorMatrix t && t.isWholeRowMajor();
    }

    /** The stored tensor this layer's matrix views, or null for a layer not read from a tensor. */
    public Tensor tensor() {
        return matrix instanceof TensorMatrix t ? t.tensor() : null;
    }
}
