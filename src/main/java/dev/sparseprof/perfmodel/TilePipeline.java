package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.GpuSpec;

/**
 * One output tile of a tensor-core GEMM on one SM, step by step, as a CUTLASS-style multistage
 * main loop runs it: per K step the SM copies the step's A slice (compressed values plus metadata
 * for 2:4) and B slice from the L2 into shared memory, its four warps (2 x 2, each a quarter of the
 * tile) read their A rows and B columns from shared memory into registers, and the tensor cores
 * do {@code 2 r c k} FLOPs. The step takes the slowest of the math (the SM's share of the peak),
 * the L2 copy (the SM's share of the L2 bandwidth, every SM loading at once) and the shared memory
 * traffic (writes plus warp reads at the SM's share of the L1/shared array's bandwidth: the same
 * SRAM), plus the fixed {@code tileStep} cycles (copy wait, barrier). Before the first step the
 * pipeline fills (L2 plus DRAM latency); after the last the C tile goes out through the L2. With
 * two or more blocks resident on an SM (occupancy: warps, registers, shared memory and the block
 * limit from the spec) one block's fill and drain hide behind another's main loop.
 *
 * <p>The K step is two mma instructions deep, from the PTX shapes (hardware-facts.md section 2):
 * dense m16n8k16 for 16-bit types is 32 elements, sparse mma.sp m16n8k32 is 64 logical ones
 * (64 bytes of dense K per step, twice that for 2:4, whatever the type). The sparse path thus moves
 * the same B bytes per step for twice the math, which is where it loses to its 2x peak.
 */
final class TilePipeline {
    /** Warps of a thread block, in a 2 x 2 grid over the tile. */
    static final int WARP_GRID = 2;

    private TilePipeline() {}

    /** Logical K per main-loop step: two mma (or mma.sp) instructions deep. */
    static int kStep(int elementBytes, boolean sparse) {
        return Math.max(1, 64 / elementBytes) * (sparse ? 2 : 1);
    }

    /**
     * One {@code rows x cols} tile over {@code k} with {@code aBytesPerElement} bytes of A per
     * logical element (values plus metadata) and {@code elementBytes} per B and C element, at
     * {@code peakFlopsPerSecond} for the whole GPU: its main loop, its fill and drain, and what
     * one thread block of it holds (shared memory for {@link #STAGES} stages, registers).
     */
    static Tile tile(GpuSpec g, int rows, int cols, long k, double aBytesPerElement, int elementBytes,
                     double peakFlopsPerSecond, boolean sparse) {
        int step = kStep(elementBytes, sparse);
        long steps = (k + step - 1) / step;
        double smPeak = peakFlopsPerSecond / g.sms();
        double math = 2.0 * rows * cols * step / smPeak;
        double aStep = rows * step * aBytesPerElement;
        double bStep = (double) step * cols * elementBytes;
        double l2Share = g.l2().bandwidthBytesPerSecond() / g.sms();
        double sramShare = g.l1().bandwidthBytesPerSecond() / g.sms();
        double copy = l2Share > 0 ? (aStep + bStep) / l2Share : 0;
        double warpReads = WARP_GRID * (aStep + bStep);
        double shared = sramShare > 0 ? (aStep + bStep + warpReads) / sramShare : 0;
        double stepSeconds = Math.max(math, Math.max(copy, shared)) + g.overheads().tileStepCycles() / g.clockHertz();
        double fill = g.l2().latencyCycles() / g.clockHertz() + g.dram().latencySeconds();
        double drain = (l2Share > 0 ? (double) rows * cols * elementBytes / l2Share : 0) + g.l2().latencyCycles() / g.clockHertz();
        double sharedBytes = STAGES * (aStep + bStep);
        int registers = (int) Math.ceil((double) rows * cols / THREADS) + FRAGMENT_REGISTERS;
        return new Tile(steps * stepSeconds, fill + drain, sharedBytes, registers);
    }

    /** Seconds for one tile on an SM of its own (no other block to hide its fill and drain). */
    static double tileSeconds(GpuSpec g, int rows, int cols, long k, double aBytesPerElement, int elementBytes,
                              double peakFlopsPerSecond, boolean sparse) {
        Tile t = tile(g, rows, cols, k, aBytesPerElement, elementBytes, peakFlopsPerSecond, sparse);
        return t.mainSeconds() + t.fillDrainSeconds();
    }

    /** Stages of the copy pipeline (CUTLASS's Ampere multistage default, U). */
    static final int STAGES = 3;
    /** Threads of a thread block: 4 warps. */
    static final int THREADS = WARP_GRID * WARP_GRID * 32;
    /** Registers per thread beside the fp32 accumulators: A/B fragments, addresses, loop state (U). */
    static final int FRAGMENT_REGISTERS = 64;

    /**
     * A tile's costs: {@code mainSeconds} of K steps, {@code fillDrainSeconds} before and after,
     * and one thread block's {@code sharedBytes} and {@code registersPerThread}.
     */
    record Tile(double mainSeconds, double fillDrainSeconds, double sharedBytes, int registersPerThread) {
        /**
         * Thread blocks of this tile resident on one SM: the fewest the warps, the registers, the
         * shared memory and the block limit allow (at least 1: a library would not pick a tile
         * that cannot launch, and the spec's figures are not exact).
         */
        int blocksPerSm(GpuSpec g) {
            long byWarps = g.residentWarpsPerSm() / (WARP_GRID * WARP_GRID);
            long byRegisters = g.registersPerSm() / ((long) registersPerThread * THREADS);
            long byShared = sharedBytes > 0 && g.sharedMemoryBytesPerSm() > 0 ? (long) (g.sharedMemoryBytesPerSm() / sharedBytes) : byWarps;
            return (int) Math.max(1, Math.min(Math.min(byWarps, byRegisters), Math.min(byShared, g.maxBlocksPerSm())));
        }

        /**
         * The busiest SM's time for {@code waves} tiles: with two or more blocks resident, one
         * block's fill and drain overlap another's main loop, so only the first fill and the last
         * drain show; with one, every tile pays its own.
         */
        double seconds(long waves, int blocksPerSm) {
            return waves * mainSeconds + (blocksPerSm >= 2 ? 1 : waves) * fillDrainSeconds;
        }
    }
}
