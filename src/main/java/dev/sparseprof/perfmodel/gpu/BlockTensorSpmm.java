package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.perfmodel.Balance;
import dev.sparseprof.sparse.stats.Lengths;

/**
 * Block-sparse (BSR, {@code R x C} blocks) times dense on tensor cores, as Triton's
 * {@code bsr_dense_mm} runs it (PyTorch 2.1's {@code _bsr_strided_dense_rowspace_kernel}, the
 * kernel of the Quansight post): one program per block row and column tile of the output, the tile
 * {@code R x T} with {@code T = R} (the kernel's accumulator is {@code BLOCKSIZE_ROW x
 * BLOCKSIZE_ROW}; B is tiled to match), never narrower than N needs nor than a tensor-core
 * fragment's 16; its loop takes the block row's non-empty blocks one per step: it loads the block
 * ({@code R x C}) and the block's column index, then the B rows that index names ({@code C x T},
 * gathered), and the tensor cores do {@code 2 R C T} FLOPs. A step takes the slowest of the math (the SM's share of the tensor peak),
 * the L2 copy (the SM's share of the L2 bandwidth) and the shared-memory traffic (the copy in,
 * the 2 x 2 warps' reads out, at the SM's share of the L1/shared array), plus the fixed
 * {@code tileStep} cycles (copy wait, barrier), as a GEMM's main-loop step does. The B rows'
 * address depends on the index loaded in the same step, so no prefetch covers it: each step is also
 * a chain of two dependent loads (the index from the L2, then the B rows and the block from the L2
 * and DRAM), which the programs resident on the SM overlap, so an SM's steps take at least that
 * chain over its residents. A program waits
 * before its first step for three dependent loads (row pointer, column index, block), each an L2
 * plus DRAM latency, and writes its C tile after the last. Programs are dealt to whichever SM
 * frees first, in grid order; with two or more resident per SM (warps, shared memory for
 * {@link #STAGES} stages, the block limit) one's fill and drain hide behind another's steps. No
 * schedule makes the kernel shorter than its longest program (fill, the fullest block row's steps,
 * drain): one program runs on one SM.
 * Small blocks lose to dense by the fixed per-step cycles and the B slice each small block must
 * bring in: a 16 x 16 block does 1/8 of the math of a 128 x 128 dense tile's step per B byte.
 */
public final class BlockTensorSpmm {
    /** Narrowest output tile: a tensor-core fragment (mma m16n8k16 pairs: 16). */
    public static final int MIN_TILE_COLUMNS = 16;
    /** Software-pipeline stages (U: Triton's num_stages for these kernels, as CUTLASS's multistage default). */
    public static final int STAGES = 3;
    /** Warps of a program, in a 2 x 2 grid over its tile (Triton's num_warps = 4). */
    public static final int WARPS = 4;

    /**
     * One layer's mapping: the output tile's columns and count, one step's seconds, the fill and
     * drain around a program, programs resident per SM, the busiest SM's seconds and the schedule.
     */
    public record Mapping(int tileColumns, long columnTiles, double stepSeconds, double fillDrainSeconds, int resident,
                          double busiestSmSeconds, double longestProgramSeconds, Balance balance) {
        public Mapping {
            if (tileColumns <= 0 || columnTiles <= 0 || resident <= 0) throw new IllegalArgumentException("empty tiling");
            if (!(stepSeconds > 0) || !(fillDrainSeconds >= 0) || !(busiestSmSeconds >= 0) || !(longestProgramSeconds >= 0)) {
                throw new IllegalArgumentException("bad cost");
            }
        }
    }

    private BlockTensorSpmm() {}

    /**
     * {@code blocksPerBlockRow}: non-empty blocks of each block row; {@code n}: B's columns;
     * {@code peakFlopsPerSecond}: the whole GPU's tensor peak for the dtype.
     */
    public static Mapping map(GpuSpec g, int r, int c, Lengths blocksPerBlockRow, long n, int elementBytes, double peakFlopsPerSecond) {
        long covering = Math.max(MIN_TILE_COLUMNS, Long.highestOneBit(Math.max(1, n - 1)) << 1);
        int tile = (int) Math.max(MIN_TILE_COLUMNS, Math.min(r, covering));
        long tiles = (n + tile - 1) / tile;
        double smPeak = peakFlopsPerSecond / g.sms();
        double aStep = (double) r * c * elementBytes;
        double bStep = (double) c * tile * elementBytes;
        double l2Share = g.l2().bandwidthBytesPerSecond() / g.sms();
        double sramShare = g.l1().bandwidthBytesPerSecond() / g.sms();
        double math = 2.0 * r * c * tile / smPeak;
        double copy = l2Share > 0 ? (aStep + bStep) / l2Share : 0;
        double shared = sramShare > 0 ? (aStep + bStep) * (1 + 2) / sramShare : 0; // in once, read by the 2 x 2 warps' rows and columns
        double busy = Math.max(math, Math.max(copy, shared)) + g.overheads().tileStepCycles() / g.clockHertz();
        double l2Latency = g.l2().latencyCycles() / g.clockHertz();
        double load = l2Latency + g.dram().latencySeconds();
        double fill = 3 * load;
        double drain = (l2Share > 0 ? (double) r * tile * elementBytes / l2Share : 0) + g.l2().latencyCycles() / g.clockHertz();
        long byWarps = g.residentWarpsPerSm() / WARPS;
        long byShared = g.sharedMemoryBytesPerSm() > 0 ? (long) (g.sharedMemoryBytesPerSm() / (STAGES * (aStep + bStep))) : byWarps;
        int resident = (int) Math.max(1, Math.min(Math.min(byWarps, byShared), g.maxBlocksPerSm()));
        double step = Math.max(busy, (busy + l2Latency + load) / resident);
        // Programs in grid order (block row major, then column tile), each to the SM that frees first.
        int rows = blocksPerBlockRow.count();
        long programs = (long) rows * tiles;
        double perProgram = resident >= 2 ? 0 : fill + drain;
        SmSchedule schedule = new SmSchedule(g.sms());
        int most = 0;
        for (int i = 0; i < rows; i++) most = Math.max(most, blocksPerBlockRow.get(i));
        for (long p = 0; p < programs; p++) schedule.deal(blocksPerBlockRow.get((int) (p / tiles)) * step + perProgram);
        double once = resident >= 2 ? fill + drain : 0;
        Balance balance = schedule.balance(r + "x" + c + " blocks, " + r + "x" + tile + " programs, " + resident + "/SM over " + g.sms() + " SMs",
                once);
        double max = schedule.busiest();
        return new Mapping(tile, tiles, step, fill + drain, resident, max + once, fill + most * step + drain, balance);
    }
}
