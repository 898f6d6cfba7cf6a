package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.perfmodel.Balance;
import dev.sparseprof.sparse.stats.Lengths;
import dev.sparseprof.util.DType;
import java.util.Locale;

/**
 * Block-sparse (BSR, {@code R x C} blocks) times dense as PyTorch 2.1's Triton {@code bsr_dense_mm}
 * runs it ({@code torch/sparse/_triton_ops.py}, {@code _bsr_strided_dense_rowspace_kernel}, the
 * kernel of the Quansight post), program by program:
 * <ul>
 * <li>One program per block row and output tile of {@code R x T} columns, {@code T = R} (the
 *     accumulator is {@code BLOCKSIZE_ROW x BLOCKSIZE_ROW}; B is tiled to match), never narrower
 *     than N needs nor than a tensor-core fragment's 16; launched with {@code num_warps=4,
 *     num_stages=1} ({@code _run_dense_rowspace_kernel}).</li>
 * <li>Its loop takes the block row's non-empty blocks one per step: it loads the block ({@code R x
 *     C}) and the block's column index, then the B rows that index names ({@code C x T}, a load that
 *     depends on the index), stores both into shared memory for the dot's operand layout, and
 *     multiplies ({@code R C T} FMAs). {@code num_stages=1}: Triton does not pipeline the loop, so
 *     nothing of the next step is issued before this step's dot ends; within one program a step
 *     is the sum of its phases: the dependent loads (index from the L2, then B and the block from
 *     the L2 and DRAM), the copy of the step's bytes at the SM's share of the L2 bandwidth, the
 *     shared-memory traffic, the math and the spec's {@code tileStep} cycles (barrier, loop). The
 *     shared-memory traffic counts the step's bytes three times before the operand reads
 *     ({@link #SRAM_PASSES_BEFORE_OPERANDS}): with one stage Triton's pipeliner (the pass that makes a
 *     dot's loads cp.async copies into shared memory) does not run, so the loads are plain
 *     {@code ld.global}, whose default {@code .ca} allocates each line in the L1; the line is written
 *     into the L1 data array (its fill from the L2), read from it into registers, then stored to
 *     shared memory: three passes through the SM's one L1/shared SRAM.</li>
 * <li>The programs resident on an SM overlap each other's latencies but queue for its resources
 *     (the L2 copy, the SRAM, the dot's pipe, the FMA dot's FP64 pipe): {@link ResidentSharing},
 *     mean value analysis of that closed network with fixed-length phases, gives the SM's time per
 *     step; it lies above both the plain bounds (the busiest resource; the serial step over the
 *     residents), most where they meet. Residents: the warps, one stage of shared memory, the block limit and the registers:
 *     the accumulator, the larger of the loaded tiles (global to registers before the shared store)
 *     and the dot's operand fragments (the whole block converted to the operand layout), plus
 *     {@link GpuGemm#FRAGMENT_REGISTERS} as the GEMM's threads carry.</li>
 * <li>{@link Dot#TENSOR} (fp16/bf16: {@code tl.dot} on the tensor cores, fp32 accumulator): the
 *     step's math at the SM's share of the tensor peak; the 2 x 2 warps read their operand rows and
 *     columns from shared memory (each byte read twice).</li>
 * <li>{@link Dot#FMA} (fp32: the 2.1 kernel passes {@code allow_tf32=False} and a float64
 *     accumulator for fp32 inputs, so {@code tl.dot} runs as FMAs on the CUDA cores): each thread
 *     owns a {@code p x q} part of the tile ({@code p q = R T / 128}, the squarest power-of-two
 *     split) and per element of K reads {@code p + q} operands from shared memory, one warp-wide
 *     load each (one wavefront: the SM's shared bytes per clock); the FMAs run at the SM's share
 *     of the vector peak into the dot's fp32 result, which {@code acc += } then converts and adds
 *     into the double accumulator ({@link #accumulateSeconds}: an F2F and a DADD per output element
 *     per step, in the program's step and as the FP64 pipe's load on the SM); both tiles are live
 *     during the dot.</li>
 * <li>A program waits before its first step for three dependent loads (row pointers, column
 *     index, block) and writes its C tile after the last. Programs are dealt to whichever SM frees
 *     first, in grid order. A program costs its SM its steps at the shared pace and its fill and
 *     drain (latencies waited out in one of the resident slots) over the residents. No kernel is
 *     shorter than its longest program (fill, its block row's steps at its own pace among the
 *     residents, drain).</li>
 * </ul>
 * Small blocks lose to dense by the step's fixed latency chain, which a small block's few FLOPs
 * cannot cover, and by the B slice each small block brings in: a 16 x 16 block does 1/8 of the math
 * of a 128 x 128 dense tile's step per B byte.
 */
public final class BlockTensorSpmm {
    /** Narrowest output tile: a tensor-core fragment (mma m16n8k16 pairs: 16). */
    public static final int MIN_TILE_COLUMNS = 16;
    /** Software-pipeline stages: PyTorch 2.1's {@code _run_dense_rowspace_kernel} launches with {@code num_stages=1} (V). */
    public static final int STAGES = 1;
    /** Warps of a program, in a 2 x 2 grid over its tile: {@code num_warps=4} (V, same launch). */
    public static final int WARPS = 4;
    /**
     * Passes of a step's loaded bytes through the SM's L1/shared SRAM before the dot's operand reads:
     * the L1 fill, the read into registers, the store to shared memory. The loads are plain
     * {@code ld.global}: Triton 2.1's load lowering ({@code LoadStoreOpToLLVM.cpp} at e6216047) adds a
     * cache operator only when {@code tl.load} names one, and the kernel's loads name none; PTX's
     * default {@code ld.ca} "allocates cache lines in all levels (L1 and L2)" (PTX ISA, cache
     * operators, V). The L1 data array is the SRAM shared memory lives in (the 192 KB unified
     * L1/shared per SM, V), so the fill writes it like the store does; each pass at the spec's
     * {@code l1.bandwidth} (U: 128 B per clock per SM, reads and writes alike).
     */
    static final int SRAM_PASSES_BEFORE_OPERANDS = 3;

    /** How the program's {@code tl.dot} multiplies a block. */
    public enum Dot {
        /** fp16/bf16 on the tensor cores, fp32 accumulator. */
        TENSOR(4),
        /**
         * fp32 with {@code allow_tf32=False}: FMAs on the CUDA cores into the dot's fp32 result tile,
         * added to the float64 accumulator after each dot (both live during the dot: 4 + 8 bytes).
         */
        FMA(12);

        private final int accumulatorBytes;

        Dot(int accumulatorBytes) {
            this.accumulatorBytes = accumulatorBytes;
        }
    }

    /**
     * One layer's mapping: the output tile's columns and count, the SM's seconds per step, one
     * program's seconds per step (its phases in series), the fill and drain around a program,
     * programs resident per SM, the busiest SM's seconds, the longest program and the schedule.
     */
    public record Mapping(int tileColumns, long columnTiles, double stepSeconds, double programStepSeconds, double fillDrainSeconds,
                          int resident, double busiestSmSeconds, double longestProgramSeconds, Balance balance) {
        public Mapping {
            if (tileColumns <= 0 || columnTiles <= 0 || resident <= 0) throw new IllegalArgumentException("empty tiling");
            if (!(stepSeconds > 0) || !(programStepSeconds >= stepSeconds * (1 - 1e-12)) || !(fillDrainSeconds >= 0)
                    || !(busiestSmSeconds >= 0) || !(longestProgramSeconds >= 0)) {
                throw new IllegalArgumentException("bad cost");
            }
        }
    }

    private BlockTensorSpmm() {}

    /**
     * {@code blocksPerBlockRow}: non-empty blocks of each block row; {@code n}: B's columns;
     * {@code peakFlopsPerSecond}: the whole GPU's peak for the dot (tensor for {@link Dot#TENSOR},
     * the CUDA cores' fp32 for {@link Dot#FMA}).
     */
    public static Mapping map(GpuSpec g, Dot dot, int r, int c, Lengths blocksPerBlockRow, long n, int elementBytes,
                              double peakFlopsPerSecond) {
        long covering = Math.max(MIN_TILE_COLUMNS, Long.highestOneBit(Math.max(1, n - 1)) << 1);
        int tile = (int) Math.max(MIN_TILE_COLUMNS, Math.min(r, covering));
        long tiles = (n + tile - 1) / tile;
        double clock = g.clockHertz();
        double smPeak = peakFlopsPerSecond / g.sms();
        double aStep = (double) r * c * elementBytes;
        double bStep = (double) c * tile * elementBytes;
        double l2Share = g.l2().bandwidthBytesPerSecond() / g.sms();
        double sramShare = g.l1().bandwidthBytesPerSecond() / g.sms();
        int threads = WARPS * g.warpSize();
        double math = 2.0 * r * c * tile / smPeak;
        double reads;
        double operandBytes;
        if (dot == Dot.TENSOR) {
            reads = 2 * (aStep + bStep); // the 2 x 2 warps: each operand row read by 2 warps, each column by 2
            operandBytes = (aStep + bStep) / 2; // a warp's half of A's rows and half of B's columns, all of K
        } else {
            int[] pq = threadTile((long) r * tile / threads);
            double wavefront = g.l1().bandwidthBytesPerSecond() / (g.sms() * clock);
            reads = (double) c * WARPS * (pq[0] + pq[1]) * wavefront;
            operandBytes = (double) (pq[0] + pq[1]) * c * elementBytes * g.warpSize(); // a warp's p rows of A and q columns of B
        }
        double copy = l2Share > 0 ? (aStep + bStep) / l2Share : 0;
        // One stage: Triton's pipeliner, which turns loads feeding a dot into cp.async copies to shared
        // memory, runs only for num_stages > 1 (Triton 2.x lib/Dialect/TritonGPU/Transforms/Pipeline.cpp,
        // PipelinePass::runOnOperation: `if (numStages <= 1) return;`), so the step's loads are ld.global into registers:
        // their lines are filled into the L1 data array (the SRAM shared memory lives in; ld.ca allocates in L1),
        // read out of it and then stored to shared memory for the dot's operand layout, three passes through
        // the SRAM before the operand reads.
        double shared = sramShare > 0 ? (SRAM_PASSES_BEFORE_OPERANDS * (aStep + bStep) + reads) / sramShare : 0;
        double l2Latency = g.l2().latencyCycles() / clock;
        double load = l2Latency + g.dram().latencySeconds();
        double chain = l2Latency + load; // the index, then the B rows it names (the block's load overlaps the index's)
        double fixed = g.overheads().tileStepCycles() / clock;
        // The FMA dot's float64 accumulator: tl.dot returns fp32, which `acc += ...` converts and adds in
        // double, an F2F.F64.F32 and a DADD per output element per step on the FP64 pipe, after the dot.
        double accumulate = dot == Dot.FMA ? accumulateSeconds(g, (long) r * tile) : 0;
        double programStep = chain + copy + shared + math + accumulate + fixed;
        int resident = resident(g, dot, r, tile, aStep + bStep, operandBytes, threads);
        // The residents share the SM's L2 port, its SRAM and the dot's pipes (and the FP64 pipe of
        // the FMA dot's accumulate) while each waits alone on its dependent loads and fixed cycles.
        double step = ResidentSharing.stepSeconds(resident, chain + fixed, copy, shared, math, accumulate);
        double fill = 3 * load;
        double drain = (l2Share > 0 ? (double) r * tile * elementBytes / l2Share : 0) + l2Latency;
        // Programs in grid order (block row major, then column tile), each to the SM that frees first.
        // A program costs the SM its steps at the shared pace (`step`, ResidentSharing) and its fill and
        // drain, latencies it waits out in one of the `resident` slots, over the residents: 1/resident
        // of their time, whether or not the residents are in phase.
        int rows = blocksPerBlockRow.count();
        long programs = (long) rows * tiles;
        SmSchedule schedule = new SmSchedule(g.sms());
        int most = 0;
        for (int i = 0; i < rows; i++) most = Math.max(most, blocksPerBlockRow.get(i));
        for (long p = 0; p < programs; p++) {
            int blocks = blocksPerBlockRow.get((int) (p / tiles));
            // An empty block row's program reads its two row pointers and returns (`if row_nnz == 0: return`).
            schedule.deal(blocks == 0 ? load / resident : (fill + drain) / resident + blocks * step);
        }
        Balance balance = schedule.balance(r + "x" + c + " blocks, " + r + "x" + tile + " programs (" + dot.name().toLowerCase(Locale.ROOT)
                + " dot), " + resident + "/SM over " + g.sms() + " SMs", 0);
        double max = schedule.busiest();
        // A program's own pace among its residents (Little's law: residents / throughput), never under its pace alone.
        double ownStep = Math.max(programStep, resident * step);
        return new Mapping(tile, tiles, step, programStep, fill + drain, resident, max, fill + most * ownStep + drain, balance);
    }

    /**
     * Programs resident on one SM: warps, one stage of shared memory for the block and its B slice,
     * the block limit and the registers per thread (the accumulator; the larger of the loaded tiles
     * and the operand fragments, which are not live at once without pipelining; the GEMM's fixed
     * {@link GpuGemm#FRAGMENT_REGISTERS}), capped at {@link GpuGemm#MAX_REGISTERS}.
     *
     * <p>The fixed part overlaps the explicit one: in the CUTLASS GEMM those 64 stand for the warp's
     * double-buffered operand fragments with its addresses and loop state (a 64 x 64 warp tile's A and
     * B fragments of k16, twice, are 64 registers by themselves), and here the operand fragments are
     * counted explicitly. What this program holds beside them is its three pointer tensors
     * ({@code values_block_ptrs}, {@code dense_block_ptrs}, {@code output_ptrs}, built before the loop
     * in {@code _bsr_strided_dense_rowspace_kernel}), the column-index pointer, the loop state and
     * whatever index arithmetic the compiler keeps live; no source gives that count, only ptxas does
     * (Triton's {@code CompiledKernel.n_regs} for the 2.1 kernel). Taking the fixed part out without
     * that count would assume a few registers a thread, which is a guess the other way, so it stays
     * (U) until a compiled kernel gives the number: docs/perfmodel.md, "The BSR register count".
     */
    static int resident(GpuSpec g, Dot dot, int r, int tile, double stageBytes, double operandBytesPerWarp, int threads) {
        double accumulator = (double) r * tile * dot.accumulatorBytes / threads / 4;
        double loaded = stageBytes / threads / 4;
        double operands = operandBytesPerWarp / g.warpSize() / 4;
        int registers = (int) Math.min(GpuGemm.MAX_REGISTERS, Math.ceil(accumulator + Math.max(loaded, operands)) + GpuGemm.FRAGMENT_REGISTERS);
        long byWarps = g.residentWarpsPerSm() / WARPS;
        long byShared = g.sharedMemoryBytesPerSm() > 0 ? (long) (g.sharedMemoryBytesPerSm() / (STAGES * stageBytes)) : byWarps;
        long byRegisters = g.registersPerSm() > 0 ? g.registersPerSm() / ((long) registers * threads) : byWarps;
        return (int) Math.max(1, Math.min(Math.min(byWarps, byShared), Math.min(byRegisters, g.maxBlocksPerSm())));
    }

    /**
     * Conversions to and from 64-bit types per clock per SM: 16 on compute capability 8.0 and 9.0
     * (U: the CUDA C++ Programming Guide's arithmetic-instruction throughput table, not re-read here).
     */
    static final double CONVERSIONS_64_PER_CLOCK = 16;

    /**
     * One program-step's float64 accumulate on an SM: {@code elements} conversions of the fp32 dot
     * result ({@link #CONVERSIONS_64_PER_CLOCK}) and as many DADDs at the SM's share of the spec's
     * fp64 vector peak (one instruction per two FLOPs of its DFMA rate; without an fp64 peak, at the
     * conversions' rate).
     */
    static double accumulateSeconds(GpuSpec g, long elements) {
        double clock = g.clockHertz();
        double dadds = g.peaks().has(ComputeUnit.VECTOR, DType.F64) ? g.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F64) / (2.0 * g.sms())
                : CONVERSIONS_64_PER_CLOCK * clock;
        return elements / (CONVERSIONS_64_PER_CLOCK * clock) + elements / dadds;
    }

    /** A thread's {@code p x q} share of the output tile ({@code p q = outputs}, powers of two, {@code p <= q}, the squarest). */
    static int[] threadTile(long outputs) {
        long total = Math.max(1, Long.highestOneBit(Math.max(1, outputs)));
        int log = Long.numberOfTrailingZeros(total);
        int p = 1 << (log / 2);
        return new int[] {p, (int) (total / p)};
    }
}
