package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.GrowIntArray;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * Block sparse row storage with {@code R x C} blocks: CSR over block rows whose entries are dense
 * blocks. Edge blocks are stored whole (padded): their elements outside the matrix hold 0.
 *
 * <p>Invariant ({@link #validate()}): {@code blockRowPointers.length == ceil(rows/R) + 1}, from 0,
 * non-decreasing, ending at the block count nb; block column indices strictly increase within a
 * block row and lie in {@code [0, ceil(cols/C))}; {@code values.length == nb * R * C}, block
 * {@code b}'s element {@code (i, j)} at {@code values[b*R*C + i*C + j]} (row-major inside the
 * block); elements outside the matrix are 0. {@link #from} stores only blocks holding a non-zero.
 *
 * <p>Bytes: values {@code nnz * s}, zero fill {@code (nb*R*C - nnz) * s} as padding, block column
 * indices {@code nb * w(ceil(cols/C))}, block row pointers {@code (ceil(rows/R) + 1) * w(max nb)}.
 */
public final class BsrMatrix implements SparseMatrix {
    private final int rows;
    private final int cols;
    private final BlockShape shape;
    private final int[] blockRowPointers;
    private final int[] blockColumnIndices;
    private final float[] values;
    private final int nnz;

    /** Takes ownership of the arrays (not copied); checks the invariant. */
    public BsrMatrix(int rows, int cols, BlockShape shape, int[] blockRowPointers, int[] blockColumnIndices, float[] values) {
        this.rows = rows;
        this.cols = cols;
        this.shape = shape;
        this.blockRowPointers = blockRowPointers;
        this.blockColumnIndices = blockColumnIndices;
        this.values = values;
        validate();
        int n = 0;
        for (float v : values) if (v != 0.0f) n++;
        this.nnz = n;
    }

    public static BsrMatrix from(CsrMatrix a, BlockShape shape) {
        int rows = a.rows();
        int cols = a.cols();
        int br = shape.rows();
        int bc = shape.cols();
        int blockRows = shape.blockRowsOf(rows);
        int blockCols = shape.blockColsOf(cols);
        int[] ptr = a.rowPointers();
        int[] idx = a.columnIndices();
        float[] val = a.values();
        int[] blockRowPointers = new int[blockRows + 1];
        int[] slotOf = new int[blockCols];
        Arrays.fill(slotOf, -1);
        GrowIntArray blockCols2 = new GrowIntArray();
        for (int b = 0; b < blockRows; b++) {
            int start = blockCols2.size();
            int rEnd = Math.min(rows, (b + 1) * br);
            for (int r = b * br; r < rEnd; r++) {
                for (int j = ptr[r]; j < ptr[r + 1]; j++) {
                    int block = idx[j] / bc;
                    if (val[j] != 0.0f && slotOf[block] < 0) {
                        slotOf[block] = 0;
                        blockCols2.add(block);
                    }
                }
            }
            for (int k = start; k < blockCols2.size(); k++) slotOf[blockCols2.get(k)] = -1;
            blockRowPointers[b + 1] = blockCols2.size();
        }
        int[] blockColumnIndices = blockCols2.toArray();
        float[] values = new float[Checks.toIntExact((long) blockColumnIndices.length * shape.area(), "BSR " + shape.label() + " values")];
        for (int b = 0; b < blockRows; b++) {
            int from = blockRowPointers[b];
            int to = blockRowPointers[b + 1];
            Arrays.sort(blockColumnIndices, from, to);
            for (int k = from; k < to; k++) slotOf[blockColumnIndices[k]] = k;
            int rEnd = Math.min(rows, (b + 1) * br);
            for (int r = b * br; r < rEnd; r++) {
                int i = r - b * br;
                for (int j = ptr[r]; j < ptr[r + 1]; j++) {
                    if (val[j] == 0.0f) continue;
                    int c = idx[j];
                    values[slotOf[c / bc] * shape.area() + i * bc + c % bc] = val[j];
                }
            }
            for (int k = from; k < to; k++) slotOf[blockColumnIndices[k]] = -1;
        }
        return new BsrMatrix(rows, cols, shape, blockRowPointers, blockColumnIndices, values);
    }

    @Override
    public void validate() {
        if (shape == null) throw new SparseprofException("BSR: no block shape");
        String fmt = "BSR " + shape.label();
        int blockRows = shape.blockRowsOf(rows);
        int blockCols = shape.blockColsOf(cols);
        Compressed.validate(fmt, "block row", blockRows, blockCols, blockRowPointers, blockColumnIndices,
                blockColumnIndices.length);
        int area = shape.area();
        if (values.length != (long) blockColumnIndices.length * area) {
            throw new SparseprofException(fmt + ": " + values.length + " values for " + blockColumnIndices.length + " blocks of " + area);
        }
        for (int b = 0; b < blockRows; b++) {
            int rowsInside = Math.min(shape.rows(), rows - b * shape.rows());
            for (int k = blockRowPointers[b]; k < blockRowPointers[b + 1]; k++) {
                int colsInside = Math.min(shape.cols(), cols - blockColumnIndices[k] * shape.cols());
                for (int i = 0; i < shape.rows(); i++) {
                    for (int j = 0; j < shape.cols(); j++) {
                        if ((i >= rowsInside || j >= colsInside) && values[k * area + i * shape.cols() + j] != 0.0f) {
                            throw new SparseprofException(fmt + ": block " + k + " holds a non-zero outside the matrix");
                        }
                    }
                }
            }
        }
    }

    @Override
    public int rows() { return rows; }

    @Override
    public int cols() { return cols; }

    @Override
    public int nnz() { return nnz; }

    public BlockShape shape() { return shape; }

    /** Stored blocks. */
    public int blockCount() { return blockColumnIndices.length; }

    /** The backing arrays, for kernels: read-only by convention. */
    public int[] blockRowPointers() { return blockRowPointers; }

    public int[] blockColumnIndices() { return blockColumnIndices; }

    public float[] values() { return values; }

    @Override
    public Format format() {
        return new Format.Bsr(shape);
    }

    @Override
    public StorageCost storage(DType dtype) {
        return storage(rows, cols, shape, nnz, blockCount(), dtype);
    }

    static StorageCost storage(int rows, int cols, BlockShape shape, long nnz, long blocks, DType dtype) {
        int s = dtype.sizeBytes();
        long indexBytes = blocks * IndexWidth.forExtent(shape.blockColsOf(cols)).sizeBytes();
        long pointerBytes = (shape.blockRowsOf(rows) + 1L) * IndexWidth.forMaxValue(blocks).sizeBytes();
        return new StorageCost("bsr" + shape.label(), dtype, StorageCost.denseBytes(rows, cols, dtype), nnz * s,
                indexBytes, pointerBytes, (blocks * shape.area() - nnz) * s);
    }

    @Override
    public CsrMatrix toCsr() {
        int[] ptr = new int[rows + 1];
        int[] idx = new int[nnz];
        float[] val = new float[nnz];
        int n = 0;
        int area = shape.area();
        for (int r = 0; r < rows; r++) {
            int b = r / shape.rows();
            int i = r % shape.rows();
            for (int k = blockRowPointers[b]; k < blockRowPointers[b + 1]; k++) {
                int base = k * area + i * shape.cols();
                int c0 = blockColumnIndices[k] * shape.cols();
                for (int j = 0; j < shape.cols(); j++) {
                    float v = values[base + j];
                    if (v != 0.0f) {
                        idx[n] = c0 + j;
                        val[n++] = v;
                    }
                }
            }
            ptr[r + 1] = n;
        }
        return new CsrMatrix(rows, cols, ptr, idx, val);
    }
}
