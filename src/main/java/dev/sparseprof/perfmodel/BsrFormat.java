package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.Lengths;
import java.util.List;

/**
 * Block-sparse rows: every block holding a non-zero is stored whole (its zeros are stored and
 * multiplied), one column index per block, a pointer per block row. One index gathers {@code c}
 * rows of B and feeds {@code r} rows of C, so B traffic per stored value falls by r. The load
 * balance comes from the real block-row distribution (non-empty blocks per block row, counted from
 * the layer's statistics scan); statistics without per-band counts spread the blocks evenly
 * (understating the imbalance).
 */
final class BsrFormat implements FormatModel {
    private final BlockShape shape;

    BsrFormat(BlockShape shape) {
        this.shape = shape;
    }

    @Override
    public String name() {
        return "bsr" + shape.label();
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (w.blocks(shape) == null) return "no " + shape.label() + " block counts for this layer";
        return Machine.vectorUnsupported(w, spec);
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        BlockDensity b = w.blocks(shape);
        int tiles = Machine.columnTiles(spec, w);
        double nb = b.nonEmptyBlocks();
        int blockRows = shape.blockRowsOf(w.rows());
        StorageCost cost = w.storage(name());
        List<DataStream> streams = List.of(
                Machine.aArray("values", cost.valueBytes() + cost.paddingBytes(), tiles, false),
                Machine.aArray("colidx", cost.indexBytes(), tiles, true),
                Machine.aArray("rowptr", cost.metadataBytes(), tiles, true),
                Machine.bGather(spec, w, nb * shape.cols()),
                Machine.cWrite(w));
        double flops = 2.0 * nb * shape.area() * w.denseColumns();
        // On a CPU each block is a small dense product in a register tile (the dense micro-kernel's
        // loads per FMA), so its FMAs run at the dense GEMM's achievable fraction of the peak, not at
        // the peak: with the peak, the time grew too little with N (held-out bias -20 % at N = 128,
        // +8 % at N = 32 on the build VM, docs/calibration.md).
        double efficiency = spec.isGpu() ? 1 : spec.overheads().denseEfficiency();
        return new KernelPlan(name(), name() + (spec.isGpu() ? " block-row split, CUDA cores" : " block rows, SIMD"), ComputeUnit.VECTOR,
                Machine.vectorDType(w.dtype()), flops, streams, Machine.sparseBalance(spec, blocksPerBlockRow(b, blockRows), tiles),
                Machine.sparseOverheadSeconds(spec, w, name(), (double) blockRows * tiles, nb * tiles, nb * shape.cols() * tiles),
                efficiency, nb * tiles); // a block's B rows are contiguous: one unpredictable address per block and tile
    }

    /**
     * Non-empty blocks of each block row: the scan's per-band counts ({@code sparse.stats}, taken in
     * the same pass as the totals), or an even spread for statistics without them.
     */
    private static Lengths blocksPerBlockRow(BlockDensity b, int blockRows) {
        return b.perBlockRow() != null ? b.perBlockRow() : evenSpread(b.nonEmptyBlocks(), blockRows);
    }

    private static Lengths evenSpread(long blocks, int blockRows) {
        int[] out = new int[blockRows];
        for (int i = 0; i < blockRows; i++) out[i] = (int) (blocks * (i + 1) / blockRows - blocks * i / blockRows);
        return Lengths.of(out);
    }
}
