package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * A tensor (or a part of one) seen as the GEMM matrix A ({@code rows x cols}) whatever its storage
 * order: element {@code (r, c)} sits at flat index
 * {@code base + (r / rowsPerGroup)*groupStride + (r % rowsPerGroup)*rowStride + sum(digit_k(c) * colStrides[k])},
 * where the digits are {@code c} written in the mixed radix {@code colDims} (last digit fastest).
 * Rows come in groups so that one view can stack the groups of a grouped ConvTranspose
 * ({@code [C_in, C_out/g, kh, kw]}), and {@code base} lets a view cover one gate of an LSTM weight.
 *
 * <p>Row-major storage ({@code colStrides == {1}}) is the profiling hot path: fp32 rows are bulk
 * copies from the (mapped) segment. Other orders (ONNX MatMul's {@code [in, out]}, TF.js's HWIO
 * convolutions) read element by element. Integer tensors are dequantized as
 * {@code (q - zeroPoint) * scale}, so the zero point gives exactly 0.0f; per-channel quantization
 * (one scale and zero point per row of A, as ONNX's per-output-channel MatMulInteger weights have)
 * is carried by {@link RowQuantization}.
 */
final class TensorMatrix extends DecodedMatrix {

    private final Tensor tensor;
    private final MemorySegment data;
    private final long base;
    private final long rowStride;
    private final int rowsPerGroup;
    private final long groupStride;
    private final long[] colDims;
    private final long[] colStrides;
    private final RowQuantization rowQuantization;
    /** A view of the same shape whose zeros zero this one's elements (torch.nn.utils.prune's {@code weight_mask}), or null. */
    private final TensorMatrix mask;
    /** The file under {@link #data} read in windows, or null: rows are read from the segment. */
    private final FileWindows windows;
    /** Where {@link #data} starts in the windows' file. */
    private final long fileOffset;

    private TensorMatrix(Tensor tensor, int rows, int cols, long base, long rowStride, int rowsPerGroup, long groupStride,
                         long[] colDims, long[] colStrides, RowQuantization rowQuantization) {
        this(tensor, rows, cols, base, rowStride, rowsPerGroup, groupStride, colDims, colStrides, rowQuantization, null);
    }

    private TensorMatrix(Tensor tensor, int rows, int cols, long base, long rowStride, int rowsPerGroup, long groupStride,
                         long[] colDims, long[] colStrides, RowQuantization rowQuantization, TensorMatrix mask) {
        super(rows, cols);
        long product = 1;
        long last = base;
        for (int k = 0; k < colDims.length; k++) {
            product *= colDims[k];
            last += (colDims[k] - 1) * colStrides[k];
        }
        if (rows <= 0 || rowsPerGroup <= 0 || rows % rowsPerGroup != 0) throw new IllegalArgumentException(tensor + ": " + rows + " rows in groups of " + rowsPerGroup);
        last += (long) (rows / rowsPerGroup - 1) * groupStride + (long) (rowsPerGroup - 1) * rowStride;
        if (product != cols || (long) rows * cols > tensor.elementCount() || base < 0 || last >= tensor.elementCount()) {
            throw new IllegalArgumentException(tensor + " is not a " + rows + "x" + cols + " matrix");
        }
        this.tensor = tensor;
        this.data = tensor.data();
        this.base = base;
        this.rowStride = rowStride;
        this.rowsPerGroup = rowsPerGroup;
        this.groupStride = groupStride;
        this.colDims = colDims.clone();
        this.colStrides = colStrides.clone();
        if (rowQuantization != null && rowQuantization.rows() != rows) {
            throw new IllegalArgumentException(tensor + ": " + rowQuantization.rows() + " row scales for " + rows + " rows");
        }
        this.rowQuantization = rowQuantization;
        if (mask != null && (mask.rows != rows || mask.cols != cols)) {
            throw new IllegalArgumentException(tensor + ": a " + mask.rows + "x" + mask.cols + " mask on " + rows + "x" + cols);
        }
        this.mask = mask;
        this.windows = FileWindows.of(data);
        this.fileOffset = windows == null ? 0 : windows.fileOffset(data);
    }

    /**
     * The calling thread's window holding bytes {@code [at, at + rowBytes)} of {@link #data}, or null
     * where rows are read from the segment (no windows, an empty row, or a row longer than a window).
     */
    private FileWindows.Window window(long at, long rowBytes) {
        if (windows == null || rowBytes == 0 || rowBytes > FileWindows.WINDOW_BYTES) return null;
        return windows.window(fileOffset + at, rowBytes, fileOffset + data.byteSize());
    }

    /** Row r is elements {@code [r*cols, (r+1)*cols)}: PyTorch's {@code [out, in]}, conv {@code [out, in, kh, kw]}. */
    static TensorMatrix rowMajor(Tensor t, int rows, int cols) {
        return new TensorMatrix(t, rows, cols, 0, cols, rows, 0, new long[] {cols}, new long[] {1}, null);
    }

    /** Rows {@code [firstRow, firstRow + rows)} of a row-major {@code [*, cols]} tensor (one gate of an RNN weight). */
    static TensorMatrix rowMajorSlice(Tensor t, long firstRow, int rows, int cols) {
        return new TensorMatrix(t, rows, cols, firstRow * cols, cols, rows, 0, new long[] {cols}, new long[] {1}, null);
    }

    /** A over storage {@code [cols, rows]} (ONNX MatMul's {@code [in, out]}, Keras Dense kernels). */
    static TensorMatrix transposed(Tensor t, int rows, int cols) {
        return new TensorMatrix(t, rows, cols, 0, 1, rows, 0, new long[] {cols}, new long[] {rows}, null);
    }

    /**
     * {@code groups} stacked transposed blocks: group g's rows are {@code rowsPerGroup} consecutive
     * elements starting at {@code g*groupStride}, its column c at {@code c*colStride} from there
     * (a ConvTranspose weight {@code [C_in, C_out/g, kh, kw]}: rowsPerGroup = C_out/g·kh·kw,
     * colStride = rowsPerGroup, groupStride = C_in/g·rowsPerGroup).
     */
    static TensorMatrix groupedTransposed(Tensor t, int groups, int rowsPerGroup, int cols, long colStride, long groupStride) {
        return new TensorMatrix(t, Math.multiplyExact(groups, rowsPerGroup), cols, 0, 1, rowsPerGroup, groupStride,
                new long[] {cols}, new long[] {colStride}, null);
    }

    /** A general strided view: see the class comment. */
    static TensorMatrix strided(Tensor t, int rows, int cols, long rowStride, long[] colDims, long[] colStrides) {
        if (colDims.length != colStrides.length || colDims.length == 0) throw new IllegalArgumentException("column digits");
        return new TensorMatrix(t, rows, cols, 0, rowStride, rows, 0, colDims, colStrides, null);
    }

    /** The same view with one scale and zero point per row (integer tensors only). */
    TensorMatrix withRowQuantization(RowQuantization q) {
        if (tensor.dtype().isFloatingPoint()) throw new IllegalArgumentException(tensor + " is not an integer tensor");
        return new TensorMatrix(tensor, rows, cols, base, rowStride, rowsPerGroup, groupStride, colDims, colStrides, q);
    }

    /**
     * The same view with its elements zeroed wherever {@code mask} (same shape) holds 0: the effective
     * weight {@code weight_orig * weight_mask} of a layer pruned with {@code torch.nn.utils.prune}
     * and saved before {@code prune.remove}. Pruning it writes into this view's tensor (the orig).
     */
    TensorMatrix withMask(TensorMatrix mask) {
        return new TensorMatrix(tensor, rows, cols, base, rowStride, rowsPerGroup, groupStride, colDims, colStrides, rowQuantization, mask);
    }

    Tensor tensor() {
        return tensor;
    }

    /** True when rows are contiguous in storage (the bulk-copy path). */
    boolean isRowMajor() {
        return colStrides.length == 1 && colStrides[0] == 1;
    }

    /** True when A is the whole tensor in C order, unquantized: element (r, c) at flat index {@code r*cols + c} (the streaming prune path). */
    boolean isWholeRowMajor() {
        return isRowMajor() && base == 0 && rowStride == cols && (rowsPerGroup == rows || groupStride == (long) rowsPerGroup * cols)
                && rowQuantization == null && mask == null && (long) rows * cols == tensor.elementCount() && tensor.zeroPoint() == 0 && tensor.scale() == 1.0;
    }

    @Override
    public void copyRow(int row, float[] dst, int offset) {
        checkRow(row);
        long base = rowBase(row);
        if (rowQuantization != null) {
            copyStrided(base, dst, offset, rowQuantization.scale(row), rowQuantization.zeroPoint(row));
        } else if (isRowMajor()) {
            copyContiguous(base, dst, offset);
        } else {
            copyStrided(base, dst, offset, Float.NaN, 0);
        }
        if (mask != null) {
            float[] keep = new float[cols];
            mask.copyRow(row, keep, 0);
            for (int c = 0; c < cols; c++) if (keep[c] == 0.0f) dst[offset + c] = 0.0f;
        }
    }

    private long rowBase(int row) {
        return base + (long) (row / rowsPerGroup) * groupStride + (long) (row % rowsPerGroup) * rowStride;
    }

    /**
     * Writes the stored zero (all-zero bits for floats; the row's zero point for integers) into
     * {@code target}, a segment laid out like this view's tensor (a copy of it, or its place in an
     * output file), at every element of A that {@code pruned} (row-major {@code rows x cols}) holds
     * as 0.0f and the tensor does not already store as zero. Every other byte is left alone, so the
     * surviving weights keep their stored dtype and bits. Returns how many elements were zeroed.
     */
    long writeZeros(float[] pruned, MemorySegment target) {
        if (pruned.length != (long) rows * cols) throw new IllegalArgumentException(pruned.length + " values for " + rows + "x" + cols);
        if (target.byteSize() != data.byteSize()) throw new IllegalArgumentException("target holds " + target.byteSize() + " bytes, not " + data.byteSize());
        // Edit on the heap: element accesses to a heap segment carry no arena liveness check, which
        // dominates on a mapped or arena segment (a native target is copied to the heap and back).
        MemorySegment heap = target;
        if (target.isNative()) {
            heap = MemorySegment.ofArray(new byte[Math.toIntExact(target.byteSize())]);
            MemorySegment.copy(target, 0, heap, 0, target.byteSize());
        }
        DType dtype = tensor.dtype();
        int size = dtype.sizeBytes();
        boolean floating = dtype.isFloatingPoint();
        long absMask = size == 8 ? Long.MAX_VALUE : (1L << (8 * size - 1)) - 1;
        long codeMask = size == 8 ? -1L : (1L << (8 * size)) - 1;
        int k = colDims.length;
        if (k == 1 && colStrides[0] == 1 && size == 2) {
            long zeroed = writeZerosContiguous16(pruned, heap, floating);
            if (heap != target) MemorySegment.copy(heap, 0, target, 0, target.byteSize());
            return zeroed;
        }
        long[] digit = new long[k];
        long zeroed = 0;
        for (int r = 0; r < rows; r++) {
            long zeroCode = floating ? 0 : (rowQuantization != null ? rowQuantization.zeroPoint(r) : tensor.zeroPoint()) & codeMask;
            long index = rowBase(r);
            Arrays.fill(digit, 0);
            int at = r * cols;
            for (int c = 0; c < cols; c++) {
                if (pruned[at + c] == 0.0f) {
                    long code = getRaw(heap, index, size) & codeMask;
                    boolean zero = floating ? (code & absMask) == 0 : code == zeroCode;
                    if (!zero) {
                        putRaw(heap, index, size, zeroCode);
                        zeroed++;
                    }
                }
                index = k == 1 ? index + colStrides[0] : next(digit, index);
            }
        }
        if (heap != target) MemorySegment.copy(heap, 0, target, 0, target.byteSize());
        return zeroed;
    }

    /** The hot case (fp16/bf16 rows stored contiguously) without branches on the scattered zeros. */
    private long writeZerosContiguous16(float[] pruned, MemorySegment heap, boolean floating) {
        long zeroed = 0;
        for (int r = 0; r < rows; r++) {
            short zeroCode = (short) (floating ? 0 : (rowQuantization != null ? rowQuantization.zeroPoint(r) : tensor.zeroPoint()));
            int mask = floating ? 0x7fff : 0xffff;
            long base = rowBase(r);
            int at = r * cols;
            for (int c = 0; c < cols; c++) {
                short code = heap.getAtIndex(LittleEndian.I16, base + c);
                boolean clear = pruned[at + c] == 0.0f && (code & mask) != (zeroCode & mask);
                heap.setAtIndex(LittleEndian.I16, base + c, clear ? zeroCode : code);
                zeroed += clear ? 1 : 0;
            }
        }
        return zeroed;
    }

    /** The flat index of the next column: {@code digit} (column c in the mixed radix {@code colDims}) counts up by one. */
    private long next(long[] digit, long index) {
        int d = digit.length - 1;
        while (d >= 0) {
            digit[d]++;
            index += colStrides[d];
            if (digit[d] < colDims[d]) break;
            index -= digit[d] * colStrides[d];
            digit[d] = 0;
            d--;
        }
        return index;
    }

    private static long getRaw(MemorySegment s, long i, int size) {
        return switch (size) {
            case 1 -> s.get(ValueLayout.JAVA_BYTE, i);
            case 2 -> s.getAtIndex(LittleEndian.I16, i);
            case 4 -> s.getAtIndex(LittleEndian.I32, i);
            default -> s.getAtIndex(LittleEndian.I64, i);
        };
    }

    private static void putRaw(MemorySegment target, long i, int size, long value) {
        switch (size) {
            case 1 -> target.set(ValueLayout.JAVA_BYTE, i, (byte) value);
            case 2 -> target.setAtIndex(LittleEndian.I16, i, (short) value);
            case 4 -> target.setAtIndex(LittleEndian.I32, i, (int) value);
            default -> target.setAtIndex(LittleEndian.I64, i, value);
        }
    }

    /** Row-major fp16, bf16 and fp32 rows test their stored bits ({@link StoredBits}); other views decline. */
    @Override
    public int nonZeroBits(int row, long[] words) {
        return mask != null ? maskedNonZeroBits(row, words) : storedNonZeroBits(row, words);
    }

    private int storedNonZeroBits(int row, long[] words) {
        if (rowQuantization != null || !isRowMajor()) return -1;
        checkRow(row);
        long base = rowBase(row);
        return switch (tensor.dtype()) {
            case F16, BF16 -> {
                FileWindows.Window w = window(base * 2, cols * 2L);
                if (w != null) yield StoredBits.halves(w.bytes, fileOffset + base * 2 - w.start, cols, words);
                PagePopulate.ahead(data, base * 2, cols * 2L);
                yield StoredBits.halves(data, base * 2, cols, words);
            }
            case F32, TF32 -> {
                FileWindows.Window w = window(base * 4, cols * 4L);
                if (w != null) yield StoredBits.singles(w.bytes, fileOffset + base * 4 - w.start, cols, words);
                PagePopulate.ahead(data, base * 4, cols * 4L);
                yield StoredBits.singles(data, base * 4, cols, words);
            }
            default -> -1;
        };
    }

    /** Both views' stored bits ANDed, or -1 (then the row is copied, the mask applied in {@link #copyRow}). */
    private int maskedNonZeroBits(int row, long[] words) {
        long[] keep = new long[(cols + 63) / 64];
        if (mask.nonZeroBits(row, keep) < 0) return -1;
        long[] own = new long[keep.length];
        if (storedNonZeroBits(row, own) < 0) return -1;
        int count = 0;
        for (int i = 0; i < keep.length; i++) {
            words[i] = own[i] & keep[i];
            count += Long.bitCount(words[i]);
        }
        return count;
    }

    private void copyContiguous(long base, float[] dst, int offset) {
        DType dtype = tensor.dtype();
        switch (dtype) {
            case F32, TF32 -> MemorySegment.copy(data, LittleEndian.F32, base * 4, dst, offset, cols);
            case F16 -> {
                // one bulk copy, then the conversion on a heap array (a per-element read of a shared
                // mapping pays the arena's liveness check each time)
                short[] raw = new short[cols];
                MemorySegment.copy(data, LittleEndian.I16, base * 2, raw, 0, cols);
                for (int c = 0; c < cols; c++) dst[offset + c] = Float.float16ToFloat(raw[c]);
            }
            case BF16 -> {
                short[] raw = new short[cols];
                MemorySegment.copy(data, LittleEndian.I16, base * 2, raw, 0, cols);
                for (int c = 0; c < cols; c++) dst[offset + c] = Float.intBitsToFloat((raw[c] & 0xffff) << 16);
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
            index = next(digit, index);
        }
    }

    private float decode(long i, float rowScale, long rowZero) {
        if (!Float.isNaN(rowScale)) return (tensor.rawLong(i) - rowZero) * rowScale;
        return tensor.dtype() == DType.F32 ? data.getAtIndex(LittleEndian.F32, i) : tensor.getFloat(i);
    }
}
