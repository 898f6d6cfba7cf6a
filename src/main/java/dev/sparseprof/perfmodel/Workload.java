package dev.sparseprof.perfmodel;

import dev.sparseprof.util.DType;
import java.util.List;

/**
 * One layer's GEMM as the performance models see it: {@code C[M x N] = A[M x K] · B[K x N]} with A
 * the (sparse) weight, its non-zeros per row, the non-empty blocks per block row for the blocked
 * shapes that were counted, and whether every group of 4 along K holds at most 2 non-zeros (2:4).
 * Values are stored in {@code dtype}; indices are 32-bit. Synthetic workloads (tests, the published
 * validation cases) are built from the same record.
 */
public record Workload(String name, int rows, int cols, long denseColumns, DType dtype, RowLengths rowLengths,
                       List<BlockRows> blocks, boolean twoFourCompliant) {
    public Workload {
        if (rows <= 0 || cols <= 0 || denseColumns <= 0) {
            throw new IllegalArgumentException(name + ": GEMM shape must be positive, got " + rows + "x" + cols + " x N=" + denseColumns);
        }
        if (rowLengths.rows() != rows) throw new IllegalArgumentException(name + ": row lengths for " + rowLengths.rows() + " rows, matrix has " + rows);
        if (rowLengths.max() > cols) throw new IllegalArgumentException(name + ": a row holds more non-zeros than columns");
        blocks = List.copyOf(blocks);
    }

    /** A dense workload (every weight non-zero): dense GEMM and 2:4 do not need a pattern scan. */
    public static Workload dense(String name, int m, int k, long n, DType dtype) {
        return new Workload(name, m, k, n, dtype, RowLengths.uniform(m, k),
                List.of(new BlockRows(4, 4, RowLengths.uniform((m + 3) / 4, (k + 3) / 4))), false);
    }

    /**
     * A workload whose rows all hold {@code round(K x density)} non-zeros, spread so that 4x4
     * blocks are as dense as random placement makes them; 2:4 compliance as given.
     */
    public static Workload uniformSparse(String name, int m, int k, long n, DType dtype, double density, boolean twoFour) {
        int perRow = (int) Math.round(k * density);
        // Random placement: a 4x4 block is empty with probability (1 - density)^16.
        double occupied = 1 - Math.pow(1 - density, 16);
        int blocksPerRow = (int) Math.round(((k + 3) / 4) * occupied);
        return new Workload(name, m, k, n, dtype, RowLengths.uniform(m, perRow),
                List.of(new BlockRows(4, 4, RowLengths.uniform((m + 3) / 4, blocksPerRow))), twoFour);
    }

    public long nnz() {
        return rowLengths.total();
    }

    public double density() {
        return (double) nnz() / ((double) rows * cols);
    }

    public double sparsity() {
        return 1 - density();
    }

    public double denseFlops() {
        return 2.0 * rows * cols * denseColumns;
    }

    public double sparseFlops() {
        return 2.0 * nnz() * denseColumns;
    }

    public BlockRows blocks(int r, int c) {
        for (BlockRows b : blocks) if (b.blockRows() == r && b.blockCols() == c) return b;
        return null;
    }

    /** The same layer with the dense operand {@code n} columns wide. */
    public Workload withColumns(long n) {
        return new Workload(name, rows, cols, n, dtype, rowLengths, blocks, twoFourCompliant);
    }

    public Workload withDType(DType d) {
        return new Workload(name, rows, cols, denseColumns, d, rowLengths, blocks, twoFourCompliant);
    }
}
