package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import java.util.List;

/**
 * Block-sparse rows with {@code r x c} blocks: every block holding a non-zero is stored whole
 * (its zeros are stored and multiplied), one 32-bit column index per block, a row pointer per
 * block row. One index gathers {@code c} rows of B and feeds {@code r} rows of C, so B traffic per
 * stored value falls by r. Work is balanced over block rows.
 */
final class BsrFormat implements FormatModel {
    private final int blockRows;
    private final int blockCols;

    BsrFormat(int blockRows, int blockCols) {
        this.blockRows = blockRows;
        this.blockCols = blockCols;
    }

    @Override
    public String name() {
        return "bsr" + blockRows + "x" + blockCols;
    }

    private BlockRows blocks(Workload w) {
        return w.blocks(blockRows, blockCols);
    }

    @Override
    public double storedBytes(Workload w) {
        BlockRows b = blocks(w);
        return b.nonZeroBlocks() * ((double) blockRows * blockCols * w.dtype().sizeBytes() + CsrFormat.INDEX_BYTES)
                + (b.perBlockRow().rows() + 1.0) * CsrFormat.INDEX_BYTES;
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (blocks(w) == null) return "no " + name() + " block counts for this layer";
        return new CsrFormat().unsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        BlockRows b = blocks(w);
        int tiles = Machine.columnTiles(spec, w);
        double nb = b.nonZeroBlocks();
        int blockRowCount = b.perBlockRow().rows();
        List<DataStream> streams = List.of(
                Machine.aArray("values", nb * blockRows * blockCols * w.dtype().sizeBytes(), tiles, false),
                Machine.aArray("colidx", nb * CsrFormat.INDEX_BYTES, tiles, true),
                Machine.aArray("rowptr", (blockRowCount + 1.0) * CsrFormat.INDEX_BYTES, tiles, true),
                Machine.bGather(spec, w, nb * blockCols),
                Machine.cWrite(w));
        double flops = 2.0 * nb * blockRows * blockCols * w.denseColumns();
        return new KernelPlan(name() + (spec.isGpu() ? " block-row split, CUDA cores" : " block rows, SIMD"), ComputeUnit.VECTOR,
                Machine.vectorDType(w.dtype()), flops, streams, Machine.sparseBalance(spec, b.perBlockRow(), tiles),
                Machine.sparseOverheadSeconds(spec, (double) blockRowCount * tiles, nb * tiles));
    }
}
