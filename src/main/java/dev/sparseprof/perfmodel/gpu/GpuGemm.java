package dev.sparseprof.perfmodel.gpu;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.RuntimeSpec;
import dev.sparseprof.util.DType;
import java.util.List;

/**
 * A dense or 2:4 tensor-core GEMM {@code C[m x n] = A[m x k] B[k x n]} as cuBLAS / CUTLASS /
 * cuSPARSELt run it on one GPU under one software stack ({@link RuntimeSpec}):
 * <ol>
 * <li>the library's heuristic: every CTA tile of its menu ({@link TileMenus}) and, when M x N gives
 *     fewer tiles than SMs and the library splits K, every split up to 16, costed as below; the
 *     cheapest wins, ties (within 0.5 %) going to the one that moves fewer bytes;</li>
 * <li>per CTA, its main loop step by step: per step of {@code kBytes} of A the SM copies the step's
 *     A slice (values plus metadata for 2:4) and B slice from the L2 into shared memory and its warps
 *     read their parts from there; a step takes the slowest of the math (the SM's share of the peak;
 *     Ampere-style kernels on Hopper at the runtime's {@code legacyMmaFraction}), the shared-memory
 *     traffic (those writes plus the warps' reads, at the SM's share of the L1/shared bandwidth) and
 *     the L2 copy (the L2 bandwidth shared by the SMs that are busy), over the runtime's main-loop
 *     efficiency (a CUDA-core SGEMM: {@link #simtMainloopEfficiency}), plus the spec's {@code tileStep} cycles when only one CTA fits an SM (with two,
 *     one's math covers the other's barrier);</li>
 * <li>SM90 kernels are persistent with a stream-K tile scheduler (CUTLASS 3's StreamKScheduler, cuBLAS 12
 *     on Hopper): the K steps of all tiles are dealt evenly to the SMs, a shared tile paying one fp32
 *     partial through the L2, so Hopper GEMMs see no wave quantisation (and no separate split-K);</li>
 * <li>occupancy (shared memory for its stages, registers for its fp32 accumulators, warps, the block
 *     limit); the busiest SM runs {@code ceil(ctas / SMs)} CTAs (waves); CTAs resident together start
 *     and end together, so each round of them pays one prologue (a memory latency and the first
 *     k-tiles, CUTLASS MmaMultistage's cp_async_wait before the first MMA) and one epilogue (their C
 *     tiles to the L2): a per-tile cost the main loop does not hide, a larger share of the 2:4 kernel's
 *     half as many k-steps, so its speedup falls with K;</li>
 * <li>DRAM: when one wave of CTAs covers the grid, or A and B fit half the L2, every byte once;
 *     else each wave (rasterised as a near-square block of tiles) reads its A and B strips afresh,
 *     the last wave only those of the tiles left to it; with split-K each round reads the K-range
 *     chunks its CTAs touch, splits started one after the other
 *     ({@link TileSchedule#chunkReadsPerRound}). Then the reuse the library's CTA order gives (its
 *     SM80 swizzle: {@link #swizzle}): an operand whose every strip each round reads
 *     ({@link TileSchedule#roundsCoverN}, {@link TileSchedule#roundsCoverM}) is read once when it, a
 *     round's strips of the other and the round's outputs fit the L2; the operand the raster walks
 *     is read once when it fits beside one pass's footprint ({@link TileSchedule#passCtas}); the
 *     other operand, read only while its band lasts, once when a round's strips and outputs fit (the
 *     walked one then once per band); C is written once; split-K partials stay in the L2 when they fit;</li>
 * <li>the kernel takes the largest of the SM, L2 and DRAM times; the call adds its other kernels
 *     (the sparse path's copy of B padded to the library's N multiple, a copy of the
 *     activations into the kernel's layout, an unfused bias or its expansion into a full C that the
 *     kernel's epilogue reads, an output copy), one launch each, and runs at the slower of the device and the host.</li>
 * </ol>
 */
public final class GpuGemm {
    /** Registers per thread beside the fp32 accumulators (fragments, addresses, loop state; U). */
    static final int FRAGMENT_REGISTERS = 64;
    /** The most registers a thread may hold (CUDA: 255). */
    static final int MAX_REGISTERS = 255;
    /** Warp schedulers (SM sub-partitions) per SM, one warp instruction issued per clock each (Volta to Hopper whitepapers). */
    static final int SCHEDULERS_PER_SM = 4;
    /** FFMAs per element of K of a SIMT SGEMM thread: its 8 x 8 outputs (CUTLASS {@code MmaSimt}, 32 x 64 warp, 4 x 8 lanes). */
    static final double SIMT_FFMA_PER_K = 64;
    /**
     * Other instructions per element of K of that thread: its 8 A and 8 B operands as four
     * {@code LDS.128}; per 8-deep k-tile one {@code LDG.128} and one {@code STS.128} for each operand,
     * a barrier, the pointer increment and the loop branch (7 per 8 elements of K).
     */
    static final double SIMT_OTHER_PER_K = 4 + 7.0 / 8;
    /** The deepest split of K a heuristic tries. */
    static final int MAX_SPLIT_K = 16;
    /** Automatic stage counts stop here (CUTLASS 3 sizes them to the shared memory; more buy nothing). */
    static final int MAX_AUTO_STAGES = 8;

    private GpuGemm() {}

    /**
     * The plan of {@code C = A B}: A holds {@code aBytesPerElement} bytes per logical element
     * ({@code metaBytesPerElement} of them metadata), B and C {@code dtype}'s size, on {@code unit}:
     * the sparse tensor cores run it under the runtime's sparse-path parameters; CUDA cores
     * ({@code vector}, fp32 SGEMM) take CUTLASS's SIMT tiles ({@link TileMenus#SIMT}) at the vector peak.
     */
    public static GemmPlan plan(GpuSpec g, long m, long n, long k, DType dtype, ComputeUnit unit, double aBytesPerElement,
                                double metaBytesPerElement) {
        RuntimeSpec rt = g.runtime();
        boolean sparse = unit == ComputeUnit.SPARSE_TENSOR;
        int e = dtype.sizeBytes();
        boolean fixedSparseTile = sparse && !rt.sparseTile().equals("menu");
        boolean hopperKernels = hopperKernels(g, unit);
        double peak = g.peaks().flopsPerSecond(unit, dtype);
        if (g.hopper() && !hopperKernels && unit != ComputeUnit.VECTOR) peak *= rt.legacyMmaFraction();
        long padColumns = sparse ? Math.max(1, rt.sparsePadBytes() / e) : 1;
        long nPad = (n + padColumns - 1) / padColumns * padColumns;
        // The sparse efficiency is that of SM80-style mma.sp kernels (fitted on A100 figures: their
        // metadata and compressed-A fragments go through registers); native SM90 sparse kernels read
        // their operands from shared memory as dense wgmma does, so they run at the dense one (U).
        // A CUDA-core SGEMM has its own, from its instruction mix (the tensor-core fit is not its).
        double efficiency = unit == ComputeUnit.VECTOR ? simtMainloopEfficiency(g)
                : sparse && !hopperKernels ? rt.sparseMainloopEfficiency() : rt.mainloopEfficiency();
        Costing c = new Costing(g, rt, m, nPad, k, e, sparse, aBytesPerElement, metaBytesPerElement, peak, hopperKernels, efficiency,
                swizzle(g, unit));
        List<CtaTile> menu = fixedSparseTile ? List.of(TileMenus.fixed(rt.sparseTile()))
                : unit == ComputeUnit.VECTOR ? TileMenus.SIMT : TileMenus.menu(hopperKernels, sparse);
        boolean split = sparse ? rt.sparseSplitK() : rt.splitK();
        GemmPlan best = null;
        for (CtaTile t : menu) {
            long tiles = c.tiles(t);
            int maxSplit = split && !hopperKernels && tiles < g.sms() ? (int) Math.min(MAX_SPLIT_K, Math.max(1, k / (2L * t.kBytes() / e))) : 1;
            for (int s = 1; s <= maxSplit; s++) {
                GemmPlan p = c.cost(t, s, n);
                if (p == null) continue;
                if (best == null || p.seconds() < best.seconds() * (1 - 0.005)
                        || (p.seconds() <= best.seconds() * (1 + 0.005) && p.l2Bytes() + p.dramBytes() < best.l2Bytes() + best.dramBytes())) {
                    best = p;
                }
            }
        }
        if (best == null) throw new IllegalStateException(g.source() + ": no CTA tile of the menu fits an SM");
        return best;
    }

    /** One problem's costing of candidate tiles; holds only the problem's constants. */
    private record Costing(GpuSpec g, RuntimeSpec rt, long m, long nPad, long k, int e, boolean sparse, double aB, double metaB,
                           double peak, boolean streamK, double efficiency, int swizzle) {
        long tiles(CtaTile t) {
            return ceil(m, t.rows()) * ceil(nPad, t.cols());
        }

        GemmPlan cost(CtaTile t, int split, long n) {
            double clock = g.clockHertz();
            int sms = g.sms();
            long tk = Math.max(1, t.kBytes() / e);
            long tilesM = ceil(m, t.rows());
            long tilesN = ceil(nPad, t.cols());
            long ctas = tilesM * tilesN * split;
            long kPer = ceil(k, split);
            long steps = ceil(kPer, tk);
            double aStep = t.rows() * tk * aB;
            double bStep = (double) tk * t.cols() * e;
            double stageBytes = aStep + bStep;
            double smem = g.sharedMemoryBytesPerSm();
            int stages = t.stages() > 0 ? t.stages() : (int) Math.min(MAX_AUTO_STAGES, Math.floor(smem / stageBytes));
            if (stages < 2 || stages * stageBytes > smem) return null;
            int mathThreads = 32 * t.warpsM() * t.warpsN() * (t.threads() > 32 * t.warpsM() * t.warpsN() ? 4 : 1);
            int registers = (int) Math.ceil((double) t.rows() * t.cols() / mathThreads) + FRAGMENT_REGISTERS;
            if (registers > MAX_REGISTERS) return null;
            long byShared = (long) (smem / (stages * stageBytes));
            long byRegisters = g.registersPerSm() / ((long) registers * t.threads());
            long byWarps = g.residentWarpsPerSm() / Math.max(1, t.threads() / g.warpSize());
            int resident = (int) Math.max(1, Math.min(Math.min(byShared, byRegisters), Math.min(byWarps, g.maxBlocksPerSm())));
            long active = Math.min(ctas, sms);
            double smPeak = peak / sms;
            double math = 2.0 * t.rows() * t.cols() * tk / smPeak;
            double warpReads = (double) t.warpsM() * t.warpsN()
                    * ((double) t.rows() / t.warpsM() * tk * aB + (double) t.cols() / t.warpsN() * tk * e);
            double sramShare = g.l1().bandwidthBytesPerSecond() / sms;
            double shared = sramShare > 0 ? (stageBytes + warpReads) / sramShare : 0;
            double l2Bw = g.l2().bandwidthBytesPerSecond();
            double l2Share = l2Bw > 0 ? l2Bw / active : Double.POSITIVE_INFINITY;
            double copy = stageBytes / l2Share;
            double step = Math.max(math, Math.max(shared, copy)) / efficiency
                    + (resident < 2 ? g.overheads().tileStepCycles() / clock : 0);
            double mainloop = steps * step;
            double l2Latency = g.l2().latencyCycles() / clock;
            long waves = ceil(ctas, sms);
            // CTAs resident together on an SM start together and, doing the same work, end together: their
            // fixed phases coincide, so the other's main loop hides neither (NVIDIA's "wave" is the CTAs that
            // run concurrently, SMs x occupancy). A round of `inPhase` CTAs pays one prologue and one epilogue.
            int inPhase = streamK ? 1 : (int) Math.min(resident, waves);
            // Prologue (CUTLASS MmaMultistage): the first stages-1 k-tiles' cp.async are issued, then
            // cp_async_wait<stages-2> holds every warp until the first k-tile has landed: one L2 + DRAM
            // latency plus the round's first k-tiles through the SM's L2 share, before any MMA.
            double fill = l2Latency + g.dram().latencySeconds() + inPhase * stageBytes / l2Share;
            // Split-K is serial, as CUTLASS's kSplitKSerial and cuBLAS run it for a few splits: each CTA
            // adds its fp32 partial into the workspace in the L2 (read and write), the last one writes C.
            // A bias expanded into a full C (sparseBias: matrix) is the epilogue's source: beta = 1, so
            // each tile of it is read before its D tile is written.
            boolean sourceC = sparse && rt.sparseBias().equals("matrix");
            double outBytes = (double) t.rows() * t.cols() * (split > 1 ? 2 * 4 + e : e);
            // Epilogue: the round's accumulator tiles staged through shared memory and stored to the L2.
            double epilogue = inPhase * outBytes / l2Share + l2Latency;
            if (sourceC) {
                // CUTLASS 2's epilogue (epilogue.h) walks the tile in iterations of 8 rows of each warp's tile
                // (DefaultThreadMapTensorOp's kTensorOpRows) and each iteration loads its source fragment before
                // it can apply beta and store, behind a barrier: one memory latency per iteration. The source
                // comes from DRAM, at the SM's share of it, unless C fits half the L2.
                long iterations = Math.max(1, t.rows() / t.warpsM() / 8);
                double cFull = (double) m * nPad * e;
                double sourceShare = cFull <= g.l2().sizeBytes() / 2.0 ? l2Share : g.dram().bandwidth().peak() / active;
                epilogue += inPhase * (double) t.rows() * t.cols() * e / sourceShare
                        + iterations * (l2Latency + g.dram().latencySeconds());
            }
            double smSeconds;
            double waveFactor = (double) waves * sms / ctas;
            if (streamK) {
                // SM90 persistent kernels with a stream-K tile scheduler: the CTAs' K steps are dealt
                // evenly to the SMs; a tile shared by two SMs pays one fp32 partial through the L2.
                long units = ctas * steps;
                long perSm = ceil(units, sms);
                boolean partial = units % sms != 0 || ctas < sms;
                double fixup = partial ? 2.0 * t.rows() * t.cols() * 4 / l2Share : 0;
                // Warp-specialised: the TMA producer loads the next unit's stages while the consumers
                // finish, so one fill and one epilogue per SM (one CTA per SM, inPhase = 1).
                smSeconds = perSm * step + fill + epilogue + fixup;
                waveFactor = (double) perSm * sms / units;
            } else {
                long rounds = ceil(ctas, (long) sms * inPhase);
                smSeconds = waves * mainloop + rounds * (fill + epilogue);
            }

            double aBytes = (double) m * k * aB;
            double bBytes = (double) k * nPad * e;
            double cBytes = (double) m * nPad * e;
            long concurrent = Math.min(ctas, (long) sms * resident);
            long rounds = ceil(ctas, concurrent);
            double dramA = aBytes;
            double dramB = bBytes;
            if (rounds > 1 && aBytes + bBytes > g.l2().sizeBytes() / 2.0) {
                double stripA = (double) t.rows() * k * aB;
                double stripB = (double) t.cols() * k * e;
                long[] full = waveBlock(Math.max(1, concurrent / split), tilesM, tilesN);
                TileSchedule order = new TileSchedule(tilesM, tilesN, split, concurrent, streamK, swizzle);
                if (split > 1) {
                    // A split's CTAs read only their K range, and the library starts the splits one after
                    // the other (blockIdx.z outermost), so a round holds whole planes of one split's tiles:
                    // each round reads the chunks (strip / split) its CTAs touch.
                    long[] chunks = order.chunkReadsPerRound();
                    dramA = Math.max(aBytes, chunks[0] * stripA / split);
                    dramB = Math.max(bBytes, chunks[1] * stripB / split);
                } else {
                    // Every round but the last holds `concurrent` CTAs; the last only the rest, and
                    // reads only the strips of its own tiles.
                    long[] tail = waveBlock(Math.max(1, ceil(ctas - (rounds - 1) * concurrent, split)), tilesM, tilesN);
                    dramA = Math.max(aBytes, ((rounds - 1) * full[0] + tail[0]) * stripA);
                    dramB = Math.max(bBytes, ((rounds - 1) * full[1] + tail[1]) * stripB);
                }
                // An operand whose every strip each round reads (the raster covers it) comes back after
                // one round: it is read from DRAM once when it, one round's strips of the other operand
                // and the round's output tiles fit the L2. DRAM sees only misses in a line's home
                // partition, and every line has one home, so that footprint is held once in the whole
                // L2 (a far partition's copy is refilled over the fabric, not from DRAM). Output tiles
                // count their epilogue source too where the epilogue reads one.
                double tileOut = (double) t.rows() * t.cols() * ((split > 1 ? 4 : e) + (sourceC ? e : 0));
                double roundOut = concurrent * tileOut;
                double l2 = g.l2().sizeBytes();
                boolean onceB = order.roundsCoverN() && bBytes + full[0] * stripA / split + roundOut <= l2;
                boolean onceA = order.roundsCoverM() && aBytes + full[1] * stripB / split + roundOut <= l2;
                // Where one pass of the raster down the operand it walks (A down M, B along N) is longer
                // than a round, that operand's strips come back after a pass: between two reads of a
                // strip the kernel touches the whole operand, the other operand's strips of the bands
                // the pass and the round in flight span (at most three bands of 2^log strips, one strip
                // wide on SM90) and the pass's and round's output tiles. The operand is read once when
                // that footprint fits the L2 (a tiny A at a huge N: 3072x768 in 2:4 is 2.7 MB).
                long pass = order.passCtas();
                if (pass > concurrent / split) {
                    long window = pass + concurrent / split;
                    long band = pass / (order.walksM() ? tilesM : tilesN);
                    double windowOut = window * tileOut;
                    if (order.walksM() && aBytes + Math.min(tilesN, 3 * band) * stripB / split + windowOut <= l2) onceA = true;
                    if (!order.walksM() && bBytes + Math.min(tilesM, 3 * band) * stripA / split + windowOut <= l2) onceB = true;
                }
                if (split == 1) {
                    // The other operand (B when the raster walks down M) is read only by its band's CTAs,
                    // one after the other: its strips come back each round while the band lasts, so they
                    // are read once when a round's strips of both operands and its outputs fit the L2; the
                    // walked operand is then read once per band (each pass reads all of it) unless a rule
                    // above keeps it. Else each round's near-square block, as above.
                    boolean alongM = order.walksM();
                    long walked = alongM ? tilesM : tilesN;
                    long other = alongM ? tilesN : tilesM;
                    long band = pass / walked;
                    long roundWalked = Math.min(walked, ceil(concurrent, band) + 1);
                    long roundOther = Math.min(other, band * (ceil(concurrent, pass) + 1));
                    double walkedStrip = alongM ? stripA : stripB;
                    double otherStrip = alongM ? stripB : stripA;
                    if (roundWalked * walkedStrip + roundOther * otherStrip + roundOut <= l2) {
                        long bands = ceil(other, band);
                        if (alongM) {
                            onceB = true;
                            dramA = bands * aBytes;
                        } else {
                            onceA = true;
                            dramB = bands * bBytes;
                        }
                    }
                }
                if (onceA) dramA = aBytes;
                if (onceB) dramB = bBytes;
                dramA = Math.min(dramA, tilesN * aBytes);
                dramB = Math.min(dramB, tilesM * bBytes);
            }
            double partials = split > 1 ? (double) m * nPad * 4 * split : 0;
            boolean partialsInL2 = partials <= g.l2().sizeBytes() / 2.0;
            double dramC = (sourceC ? 2 : 1) * cBytes + (partialsInL2 ? 0 : 2 * partials);
            double l2Bytes = tilesN * aBytes + tilesM * bBytes + (sourceC ? 2 : 1) * cBytes + 2 * partials;
            double dramBw = g.dram().bandwidth().peak();
            double dramSeconds = (dramA + dramB + dramC) / dramBw;
            double l2Seconds = l2Bw > 0 ? l2Bytes / l2Bw : 0;
            double kernel = Math.max(smSeconds, Math.max(dramSeconds, l2Seconds));

            int kernels = 1;
            double extra = 0;
            if (sparse && nPad != n) {
                kernels++; // B copied into a zero-padded buffer (F.pad) before the sparse kernel
                extra += ((double) k * n * e + bBytes) / dramBw;
            }
            if (sparse && rt.sparseInputCopy()) {
                kernels++; // x (n x k) copied to the k x n layout the sparse first-operand kernel takes
                extra += 2.0 * k * n * e / dramBw;
            }
            if (sparse && rt.sparseBias().equals("kernel")) {
                kernels++; // an elementwise add reads and writes C
                extra += 2 * cBytes / dramBw;
            }
            if (sourceC) {
                kernels++; // bias.view(m, 1).expand(m, n).contiguous(): C written, the bias vector read
                extra += (cBytes + (double) m * e) / dramBw;
            }
            if (sparse && rt.sparseOutputCopy()) {
                kernels++;
                extra += 2 * cBytes / dramBw;
            }
            extra += kernels * rt.launchSeconds();
            double host = sparse ? rt.sparseHostSeconds() : rt.denseHostSeconds();
            double seconds = Math.max(kernel + extra, host);
            return new GemmPlan(t, t.label(e), split, nPad, ctas, resident, waves, waveFactor, smSeconds, l2Bytes, dramA, dramA * metaB / aB,
                    dramB, dramC, kernel, extra, kernels, host, seconds);
        }
    }

    /**
     * Whether the GEMM on {@code unit} runs SM90 kernels (persistent, stream-K, wgmma): a Hopper spec's
     * tensor-core GEMMs, except sparse ones whose runtime runs Ampere kernels recompiled or a stack's
     * single fixed sparse tile (an SM80 CUTLASS GemmSparse instantiation: PyTorch's runs on 8.x only).
     */
    public static boolean hopperKernels(GpuSpec g, ComputeUnit unit) {
        RuntimeSpec rt = g.runtime();
        boolean sparse = unit == ComputeUnit.SPARSE_TENSOR;
        boolean fixedSparseTile = sparse && !rt.sparseTile().equals("menu");
        return g.hopper() && unit != ComputeUnit.VECTOR && !(sparse && (rt.legacySparseKernels() || fixedSparseTile));
    }

    /**
     * The SM80 CTA swizzle ({@code GemmIdentityThreadblockSwizzle<N>}) of the library that runs the GEMM
     * on {@code unit}: the runtime's {@code sparseSwizzle} for the sparse tensor cores, its {@code swizzle}
     * for the dense library (tensor-core and CUDA-core GEMMs alike). SM90 kernels ignore it.
     */
    public static int swizzle(GpuSpec g, ComputeUnit unit) {
        return unit == ComputeUnit.SPARSE_TENSOR ? g.runtime().sparseSwizzle() : g.runtime().swizzle();
    }

    /**
     * The main-loop efficiency of a CUDA-core SGEMM, from its instruction mix rather than the
     * tensor-core libraries' fitted {@link RuntimeSpec#mainloopEfficiency()}: CUTLASS's SIMT SGEMM
     * (the shape cuBLAS's {@code sgemm_128x128} kernels share: 128 x 128 x 8 CTA, 32 x 64 warps,
     * 8 x 8 outputs per thread) issues per element of K and thread {@link #SIMT_FFMA_PER_K} FFMAs and
     * {@link #SIMT_OTHER_PER_K} other instructions. Each of an SM's {@link #SCHEDULERS_PER_SM}
     * schedulers issues one warp instruction per clock, and a warp's FFMA holds its scheduler's FP32
     * lanes ({@code vector fp32 peak / (2 x SMs x clock x 4)}: 16 on A100, 32 on H100) for
     * {@code 32 / lanes} clocks, so the loop runs at the slower of the FP32 pipe and the issue:
     * 1.0 on A100 (the loads issue in the FFMAs' second clock), 64 / 68.9 = 0.93 on H100. D, from
     * the kernel's shape; nothing fitted.
     */
    static double simtMainloopEfficiency(GpuSpec g) {
        double lanes = g.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F32) / (2 * g.sms() * g.clockHertz() * SCHEDULERS_PER_SM);
        double pipe = SIMT_FFMA_PER_K * g.warpSize() / lanes;
        double issue = SIMT_FFMA_PER_K + SIMT_OTHER_PER_K;
        return Math.min(1, pipe / Math.max(pipe, issue));
    }

    /**
     * The M and N tiles a round of {@code tiles} tiles spans, rasterised as a near-square block (as
     * CUTLASS's swizzle does), clipped to the grid: {@code {wM, wN}}.
     */
    static long[] waveBlock(long tiles, long tilesM, long tilesN) {
        long wM = Math.min(tilesM, (long) Math.ceil(Math.sqrt(tiles)));
        long wN = Math.min(tilesN, ceil(tiles, wM));
        wM = Math.min(tilesM, Math.max(wM, ceil(tiles, wN)));
        return new long[] {wM, wN};
    }

    static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }
}
