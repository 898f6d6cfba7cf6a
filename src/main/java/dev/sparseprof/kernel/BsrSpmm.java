package dev.sparseprof.kernel;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;

/**
 * BSR (R x C blocks) SpMM: the work rows are block rows. Each block row is computed in register
 * tiles of 4 C rows x one column strip of N ({@link BlockRowTiles}), held in registers across all
 * of the block row's blocks: per block, each of its C columns loads a B row strip once and FMAs it
 * with the broadcast values of the tile's rows. Padding elements are multiplied (BSR's cost),
 * except past the matrix's last column, where B has no row.
 *
 * <p>Per SIMD vector: see {@link BlockRowTiles} (per block and block column: the strip's B loads,
 * 4 broadcasts, 4 x strip-vectors FMAs; per block 1 block-column index load; per tile the C stores).
 * Tile: 4 rows x 4 vectors on 32 registers, 4 x 2 on 16.
 */
public final class BsrSpmm implements SpmmKernel<BsrMatrix> {
    private final BlockShape shape;

    public BsrSpmm(BlockShape shape) {
        this.shape = shape;
    }

    @Override public boolean fmaBound() { return true; }

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

    @Override public int scratchFloats(BsrMatrix a, int n) { return BlockRowTiles.TRACE_SCRATCH_FLOATS; }

    @Override public boolean readsAlignedB(int n) { return true; }

    @Override
    public void runRange(Operands<BsrMatrix> op, WorkRange range, Workspace ws) {
        BsrMatrix a = op.a();
        int[] ptr = a.blockRowPointers();
        int rb = shape.rows();
        ws.setCarryRow(-1);
        for (int br = range.rowStart(); br < range.rowEnd(); br++) {
            int r0 = br * rb;
            int rows = Math.min(rb, a.rows() - r0);
            for (int i0 = 0; i0 < rows; i0 += BlockRowTiles.ROWS) {
                BlockRowTiles.compute(op, ptr[br], ptr[br + 1], i0, Math.min(BlockRowTiles.ROWS, rows - i0), r0 + i0);
            }
        }
    }

    @Override
    public void traceRange(Operands<BsrMatrix> op, WorkRange range, Workspace ws, Tracer tracer) {
        BsrMatrix a = op.a();
        int[] ptr = a.blockRowPointers();
        int rb = shape.rows();
        ws.setCarryRow(-1);
        for (int br = range.rowStart(); br < range.rowEnd(); br++) {
            tracer.readPointerPair(br);
            int r0 = br * rb;
            int rows = Math.min(rb, a.rows() - r0);
            for (int i0 = 0; i0 < rows; i0 += BlockRowTiles.ROWS) {
                BlockRowTiles.trace(op, ptr[br], ptr[br + 1], i0, Math.min(BlockRowTiles.ROWS, rows - i0), r0 + i0, ws.scratch(), tracer);
            }
        }
    }
}
