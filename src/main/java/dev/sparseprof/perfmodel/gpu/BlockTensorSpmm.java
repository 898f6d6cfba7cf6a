package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.perfmodel.Balance;
import dev.sparseprof.sparse.stats.Lengths;
import java.util.PriorityQueue;

/**
 * Block-sparse (BSR, {@code R x C} blocks) times dense on tensor cores, as Triton's
 * {@code bsr_dense_mm} runs it (PyTorch 2.1; the Quansight post on it): one program per block row
 * and column tile of the output ({@code R x T}, T from N: the power of two covering N, at least
 * the 16 of a tensor-core fragment, at most {@link #MAX_TILE_COLUMNS}); its loop takes the block
 * row's non-empty blocks one per step: the block ({@code R x C}) and the B rows its column index
 * names ({@code C x T}, gathered) come from the L2 into shared memory, and the tensor cores do
 * {@code 2 R C T} FLOPs. A step takes the slowest of the math (the SM's share of the tensor peak),
 * the L2 copy (the SM's share of the L2 bandwidth) and the shared-memory traffic (the copy in,
 * the 2 x 2 warps' reads out, at the SM's share of the L1/shared array), plus the fixed
 * {@code tileStep} cycles (copy wait, barrier), as a GEMM's main-loop step does. A program waits
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
    /** Widest output tile of a program (U: the largest BLOCK_N the PyTorch 2.1 Triton meta uses for these shapes, not checked). */
    public static final int MAX_TILE_COLUMNS = 64;
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
        int tile = (int) Math.min(MAX_TILE_COLUMNS, Math.max(MIN_TILE_COLUMNS, Long.highestOneBit(Math.max(1, n - 1)) << 1));
        long tiles = (n + tile - 1) / tile;
        double smPeak = peakFlopsPerSecond / g.sms();
        double aStep = (double) r * c * elementBytes;
        double bStep = (double) c * tile * elementBytes;
        double l2Share = g.l2().bandwidthBytesPerSecond() / g.sms();
        double sramShare = g.l1().bandwidthBytesPerSecond() / g.sms();
        double math = 2.0 * r * c * tile / smPeak;
        double copy = l2Share > 0 ? (aStep + bStep) / l2Share : 0;
        double shared = sramShare > 0 ? (aStep + bStep) * (1 + 2) / sramShare : 0; // in once, read by the 2 x 2 warps' rows and columns
        double step = Math.max(math, Math.max(copy, shared)) + g.overheads().tileStepCycles() / g.clockHertz();
        double load = g.l2().latencyCycles() / g.clockHertz() + g.dram().latencySeconds();
        double fill = 3 * load;
        double drain = (l2Share > 0 ? (double) r * tile * elementBytes / l2Share : 0) + g.l2().latencyCycles() / g.clockHertz();
        long byWarps = g.residentWarpsPerSm() / WARPS;
        long byShared = g.sharedMemoryBytesPerSm() > 0 ? (long) (g.sharedMemoryBytesPerSm() / (STAGES * (aStep + bStep))) : byWarps;
        int resident = (int) Math.max(1, Math.min(Math.min(byWarps, byShared), g.maxBlocksPerSm()));
        // Programs in grid order (block row major, then column tile), each to the SM that frees first.
        int rows = blocksPerBlockRow.count();
        long programs = (long) rows * tiles;
        double perProgram = resident >= 2 ? 0 : fill + drain;
        PriorityQueue<double[]> free = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        for (int s = 0; s < g.sms(); s++) free.add(new double[] {0});
        double total = 0;
        int most = 0;
        for (int i = 0; i < rows; i++) most = Math.max(most, blocksPerBlockRow.get(i));
        for (long p = 0; p < programs; p++) {
            double t = blocksPerBlockRow.get((int) (p / tiles)) * step + perProgram;
            double[] sm = free.poll();
            sm[0] += t;
            free.add(sm);
            total += t;
        }
        double max = 0;
        for (double[] sm : free) max = Math.max(max, sm[0]);
        double once = resident >= 2 ? fill + drain : 0;
        Balance balance = Balance.of(r + "x" + c + " blocks, " + r + "x" + tile + " programs, " + resident + "/SM over " + g.sms() + " SMs",
                max + once, total / g.sms() + once);
        return new Mapping(tile, tiles, step, fill + drain, resident, max + once, fill + most * step + drain, balance);
    }
}
