package dev.sparseprof.kernel;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Map;

/**
 * BSR (R x C blocks) SpMM: the work rows are block rows. For each block row the kernel clears its
 * R rows of C and, for each stored block, runs a dense R x C micro-GEMM: each of the block's
 * elements adds its value times one B row into one C row ({@link Axpy}). The R C rows (R * N
 * floats) stay in L1 across the block row; padding elements are multiplied (BSR's cost), except
 * past the matrix's last column, where B has no row.
 */
public final class BsrSpmm implements SpmmKernel<BsrMatrix> {
    private final BlockShape shape;

    public BsrSpmm(BlockShape shape) {
        this.shape = shape;
    }

    @Override public String name() { return "bsr" + shape.label(); }

    @Override public BsrMatrix prepare(MatrixView matrix) { return BsrMatrix.from(CsrMatrix.from(matrix), shape); }

    @Override public int rows(BsrMatrix a) { return a.rows(); }

    @Override public int cols(BsrMatrix a) { return a.cols(); }

    @Override public long storedEntries(BsrMatrix a) { return a.values().length; }

    @Override
    public long formatBytes(BsrMatrix a) {
        return a.values().length * (long) Float.BYTES + (a.blockColumnIndices().length + a.blockRowPointers().length) * (long) Integer.BYTES;
    }

    @Override
    public Map<ArrayRole, Long> arrayBytes(BsrMatrix a) {
        return Map.of(ArrayRole.VALUES, a.values().length * (long) Float.BYTES,
                ArrayRole.COLUMN_INDICES, a.blockColumnIndices().length * (long) Integer.BYTES,
                ArrayRole.ROW_POINTERS, a.blockRowPointers().length * (long) Integer.BYTES);
    }

    /** Work rows are block rows, weighted by their blocks. */
    @Override public int[] rowWork(BsrMatrix a) { return a.blockRowPointers(); }

    @Override public boolean splitsRows() { return false; }

    @Override public int scratchFloats(BsrMatrix a, int n) { return 0; }

    @Override public boolean readsAlignedB() { return true; }

    @Override
    public void runRange(Operands<BsrMatrix> op, WorkRange range, Workspace ws) {
        BsrMatrix a = op.a();
        int[] ptr = a.blockRowPointers();
        int[] bcols = a.blockColumnIndices();
        float[] vals = a.values();
        float[] c = op.c();
        int n = op.n();
        int rb = shape.rows();
        int cb = shape.cols();
        ws.setCarryRow(-1);
        for (int br = range.rowStart(); br < range.rowEnd(); br++) {
            int r0 = br * rb;
            int rows = Math.min(rb, a.rows() - r0);
            Arrays.fill(c, r0 * n, (r0 + rows) * n, 0f);
            for (int blk = ptr[br]; blk < ptr[br + 1]; blk++) {
                int k0 = bcols[blk] * cb;
                int width = Math.min(cb, a.cols() - k0);
                for (int i = 0; i < rows; i++) {
                    for (int j = 0; j < width; j++) Axpy.add(op, vals[blk * rb * cb + i * cb + j], k0 + j, r0 + i);
                }
            }
        }
    }

    @Override
    public void traceRange(Operands<BsrMatrix> op, WorkRange range, Workspace ws, Tracer tracer) {
        BsrMatrix a = op.a();
        int[] ptr = a.blockRowPointers();
        int[] bcols = a.blockColumnIndices();
        float[] vals = a.values();
        float[] c = op.c();
        int n = op.n();
        int rb = shape.rows();
        int cb = shape.cols();
        ws.setCarryRow(-1);
        for (int br = range.rowStart(); br < range.rowEnd(); br++) {
            tracer.readIndices(ArrayRole.ROW_POINTERS, br, 1);
            tracer.readIndices(ArrayRole.ROW_POINTERS, br + 1, 1);
            int r0 = br * rb;
            int rows = Math.min(rb, a.rows() - r0);
            Arrays.fill(c, r0 * n, (r0 + rows) * n, 0f);
            for (int blk = ptr[br]; blk < ptr[br + 1]; blk++) {
                tracer.readIndices(ArrayRole.COLUMN_INDICES, blk, 1);
                int k0 = bcols[blk] * cb;
                int width = Math.min(cb, a.cols() - k0);
                for (int i = 0; i < rows; i++) {
                    for (int j = 0; j < width; j++) {
                        int vi = blk * rb * cb + i * cb + j;
                        tracer.readValues(vi, 1);
                        Axpy.traceAdd(op, vals[vi], k0 + j, r0 + i, tracer);
                    }
                }
            }
        }
    }
}
