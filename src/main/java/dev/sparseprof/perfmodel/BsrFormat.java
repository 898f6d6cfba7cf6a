package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.perfmodel.gpu.BlockTensorSpmm;
import dev.sparseprof.perfmodel.gpu.RowSplitSpmm;
import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.Lengths;
import dev.sparseprof.util.DType;
import java.util.List;

/**
 * Block-sparse rows: every block holding a non-zero is stored whole (its zeros are stored and
 * multiplied), one column index per block, a pointer per block row. One index gathers {@code c}
 * rows of B and feeds {@code r} rows of C, so B traffic per stored value falls by r. The load
 * balance comes from the real block-row distribution (non-empty blocks per block row, counted from
 * the layer's statistics scan); statistics without per-band counts spread the blocks evenly
 * (understating the imbalance). GPU: blocks of 16 x 16 and more as PyTorch 2.1's Triton program
 * ({@link BlockTensorSpmm}: tensor cores for fp16/bf16, FMAs on CUDA cores for fp32), smaller ones
 * on CUDA cores, a warp per block row and column tile.
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

    /** The block shape (the pruning {@code compare} judges this format under). */
    BlockShape shape() {
        return shape;
    }

    @Override
    public String unsupported(Workload w, HardwareSpec spec) {
        if (w.blocks(shape) == null) return "no " + shape.label() + " block counts for this layer";
        if (!spec.isGpu() && !Kernels.names().contains(name())) return "no CPU kernel runs " + name() + " (CPU block kernels: " + cpuBlockKernels() + ")";
        return Machine.vectorUnsupported(w, spec);
    }

    /**
     * The block shapes a CPU kernel exists for ({@code kernel.Kernels}): the CPU model prices the
     * loop nest of a kernel that runs, so a block shape with none (the tensor-core shapes 16x16 and
     * up) has no CPU prediction rather than one no run could check.
     */
    private static String cpuBlockKernels() {
        StringBuilder sb = new StringBuilder();
        for (String k : Kernels.names()) if (k.startsWith("bsr")) sb.append(sb.isEmpty() ? "" : ", ").append(k);
        return sb.toString();
    }

    @Override
    public KernelPlan plan(Workload w, HardwareSpec spec) {
        BlockDensity b = w.blocks(shape);
        double nb = b.nonEmptyBlocks();
        int blockRows = shape.blockRowsOf(w.rows());
        StorageCost cost = w.storage(name());
        Lengths perBlockRow = blocksPerBlockRow(b, blockRows);
        if (spec instanceof GpuSpec g && onTensorCores(w, g)) return tritonPlan(w, g, cost, perBlockRow, BlockTensorSpmm.Dot.TENSOR);
        if (spec instanceof GpuSpec g && onTritonFma(w)) return tritonPlan(w, g, cost, perBlockRow, BlockTensorSpmm.Dot.FMA);
        int tiles = Machine.columnTiles(spec, w);
        List<DataStream> streams = List.of(
                Machine.aArray("values", cost.valueBytes() + cost.paddingBytes(), tiles, false),
                Machine.aArray("colidx", cost.indexBytes(), tiles, true),
                Machine.aArray("rowptr", cost.metadataBytes(), tiles, true),
                Machine.bGather(spec, w, nb * shape.cols(), false),
                Machine.cWrite(w));
        double flops = 2.0 * nb * shape.area() * w.denseColumns();
        Balance balance = Machine.sparseBalance(spec, perBlockRow, tiles);
        double overhead = Machine.sparseOverheadSeconds(spec, w, name(), (double) blockRows * tiles, nb * tiles, nb * shape.cols() * tiles);
        if (spec instanceof GpuSpec g) {
            // A warp per block row and column tile; its chain of dependent loads runs over its blocks.
            return Machine.gpuSparsePlan(name(), name() + " block-row split, CUDA cores", w, g, flops, streams, 1,
                    RowSplitSpmm.latencySeconds(g, perBlockRow, tiles, 1), balance, overhead, nb * tiles);
        }
        // On a CPU each block is a small dense product in a register tile (the dense micro-kernel's
        // loads per FMA), so its FMAs run at the dense GEMM's achievable fraction of the peak, not at
        // the peak: with the peak, the time grew too little with N (held-out bias -20 % at N = 128,
        // +8 % at N = 32 on the build VM, docs/calibration.md).
        return new KernelPlan(name(), name() + " block rows, SIMD", ComputeUnit.VECTOR, Machine.vectorDType(w.dtype()), flops, streams,
                balance, overhead, spec.overheads().denseEfficiency(), nb * tiles); // a block's B rows are contiguous: one unpredictable address per block and tile
    }

    /**
     * Blocks of 16 x 16 and more run as PyTorch 2.1's Triton {@code bsr_dense_mm} program
     * ({@link BlockTensorSpmm}): fp16/bf16 multiply on the tensor cores; fp32 (and tf32, which is
     * fp32 storage) multiply as FMAs on the CUDA cores, because that kernel passes
     * {@code allow_tf32=False} (with a float64 accumulator) for every float input
     * ({@code _run_dense_rowspace_kernel}); int8, fp8 and fp64 have no such program (its
     * {@code check_dtype} takes half, bfloat16 and float only) and run the CUDA-core block-row split.
     */
    private boolean onTensorCores(Workload w, GpuSpec g) {
        return tritonSized() && (w.dtype() == DType.F16 || w.dtype() == DType.BF16) && g.peaks().has(ComputeUnit.TENSOR, w.dtype());
    }

    /** fp32 storage, tf32 asked or not: the kernel passes {@code allow_tf32=False} for every float input. */
    private boolean onTritonFma(Workload w) {
        return tritonSized() && (w.dtype() == DType.F32 || w.dtype() == DType.TF32);
    }

    private boolean tritonSized() {
        return shape.rows() >= BlockTensorSpmm.MIN_TILE_COLUMNS && shape.cols() >= BlockTensorSpmm.MIN_TILE_COLUMNS;
    }

    /**
     * BSR as the Triton program runs it ({@link BlockTensorSpmm}): every stored block's zeros are
     * multiplied, at the dot's peak (tensor, or the CUDA cores' fp32 for the FMA dot) over the
     * program's efficiency (the busiest SM's seconds are the roof's compute term through the
     * schedule's factor); blocks and B slices go to shared memory through the L2 only.
     */
    private KernelPlan tritonPlan(Workload w, GpuSpec g, StorageCost cost, Lengths perBlockRow, BlockTensorSpmm.Dot dot) {
        double nb = w.blocks(shape).nonEmptyBlocks();
        double e = w.dtype().sizeBytes();
        ComputeUnit unit = dot == BlockTensorSpmm.Dot.TENSOR ? ComputeUnit.TENSOR : ComputeUnit.VECTOR;
        DType compute = dot == BlockTensorSpmm.Dot.TENSOR ? w.dtype() : DType.F32;
        double peak = g.peaks().flopsPerSecond(unit, compute);
        BlockTensorSpmm.Mapping map = BlockTensorSpmm.map(g, dot, shape.rows(), shape.cols(), perBlockRow, w.denseColumns(), (int) e, peak);
        double tiles = map.columnTiles();
        double flops = 2.0 * nb * shape.area() * w.denseColumns();
        double values = cost.valueBytes() + cost.paddingBytes();
        double bBytes = (double) w.cols() * w.denseColumns() * e;
        List<DataStream> streams = List.of(
                new DataStream("values", values * tiles, values, values, false, false, true),
                Machine.aArray("colidx", cost.indexBytes(), (int) tiles, true),
                Machine.aArray("rowptr", cost.metadataBytes(), (int) tiles, true),
                new DataStream("B", nb * tiles * shape.cols() * map.tileColumns() * e, bBytes, bBytes, true, false, true),
                Machine.cWrite(w));
        // Roofline compute = FLOPs / (peak x efficiency) x imbalance = the busiest SM's seconds.
        double mean = map.balance().meanWork();
        double efficiency = mean > 0 ? Math.min(1, flops / peak / mean) : 1;
        String kernel = dot == BlockTensorSpmm.Dot.TENSOR ? " BSR x dense, tensor cores (Triton bsr_dense_mm)"
                : " BSR x dense, fp32 FMA dot on CUDA cores (Triton bsr_dense_mm, allow_tf32=False)";
        return new KernelPlan(name(), name() + kernel, unit, compute, flops, streams,
                map.balance(), Machine.launchSeconds(g), efficiency, nb * tiles, map.longestProgramSeconds());
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
