package dev.sparseprof.hw;

/**
 * A CPU's in-core rates for the project's kernels, as {@code calibrate --probe} measures them with
 * every operand in L1 (the ECM model's T_core, Kerncraft's "in-core" part), in cycles of the spec's
 * clock, at {@code vectorBits}-wide vectors. The loop counts they multiply come from
 * {@code perfmodel.cpu.LoopNests}, which follows what each kernel's inner loops execute per SIMD
 * vector; the data transfers between cache levels come from the probed bandwidths.
 *
 * <ul>
 * <li>{@code denseFmaCycles}: the dense GEMM's micro-kernel per vector FMA (4 rows x 4 vectors),
 *     {@code denseNarrowFmaCycles} its one-vector (N <= lanes) micro-kernel per vector FMA;
 * <li>the broadcast-and-FMA row body (csr, coo, N:M), per stored entry of one column block of
 *     each width the kernels dispatch ({@code kernel.ColumnBlocks}): {@code block8Cycles},
 *     {@code block4Cycles}, {@code block2Cycles} (a value broadcast, an index load and per vector a
 *     B load and an FMA into the block's own accumulator: few vectors wait on the FMA latency,
 *     many on the load ports, so each width has its own rate, no line through them),
 *     {@code oneVectorCycles} (a one-vector block: 4 accumulators in turn); {@code rowBlockCycles}
 *     per row and column block of the general path (block dispatch, accumulators cleared and
 *     stored, loop exit); {@code wholeRowCycles} per row of the tight all-rows loops the kernels
 *     take when N is exactly one vector (csr, coo) or two (csr);
 * <li>{@code cooEntryCycles}: COO's run search per triple (vector compares over the row indices),
 *     {@code cooRowCycles} per row (the branch that ends a run);
 * <li>{@code bsrWideCycles}: a BSR block per wide strip (4 rows x 4 vectors), {@code bsrNarrowCycles}
 *     per one-vector strip; {@code bsrTileCycles} per register tile and strip (its C stores, the
 *     strip's set-up);
 * <li>{@code nmSlotCycles}: the N:M kernel's decode per kept slot (once per row), {@code nmRowCycles}
 *     the decode's fixed work per row;
 * <li>{@code nmDecodeSerial} (spec key {@code nmDecode: serial}): the decode was measured where csr
 *     and 2:4 run the same general-path block (4 vectors), so it is the decode pass alone, and it
 *     runs in series with the body: a loop of its own before the row's FMAs, with no B traffic for
 *     the body's transfers to hide behind. Probes before 7 Dec 2026 measured it at 2 vectors (their
 *     {@code nmSlot} holds the general path's penalty over csr's tight loop too) and the model
 *     composes it with the body, as before;
 * <li>{@code split2Cycles}, {@code split1Cycles}: per entry of the general path's 2- and 1-vector
 *     column blocks (coo and N:M at N of 1 or 2 vectors, and every N's tail), which run other code
 *     than csr's tight loops ({@code block2Cycles}, {@code oneVectorCycles}); 0: not probed (probes
 *     before 4 Dec 2026), the tight loops' rates stand in;
 * <li>{@code fixedPartsApart}: whether the probe measured the BSR per-block and N:M per-slot rates
 *     as slopes between two row lengths, their fixed parts apart in {@code bsrTileCycles} and
 *     {@code nmRowCycles} (spec keys {@code bsrTile} and {@code nmRow}). Probes before 4 Dec 2026 did
 *     not: their {@code bsrWide}/{@code bsrNarrow} hold a quarter of the tile's fixed work (block
 *     rows of 4 blocks) and {@code nmSlot} a sixteenth of the row's (rows of 16 slots), so the model
 *     charges those files no tile or row part beyond them;
 * <li>{@code l2CoreBytesPerSecond}: what one core reads from its private L2 (the probe's 1-thread read
 *     stream; 0 when not known): private levels scale with the cores running (Kerncraft's
 *     single-core ECM scaled to multi-core), which a probe on a shared machine, where two threads
 *     seldom run at once, could not show;
 * <li>{@code l3CoreBytesPerSecond}: what one core reads from the shared L3 (the 1-thread read
 *     stream; 0 when not known): a run on fewer threads than cores cannot draw the L3's all-cores
 *     bandwidth, and the cores running draw at most this each;
 * <li>{@code overlap}: how much of the transfers between levels hides behind the in-core time on
 *     this machine, from 0 (serial: {@code T = T_core + T_L1L2 + T_L2L3 + T_L3Mem}, Kerncraft's
 *     model for Intel cores, no transfer overlaps the loads that use it) to 1 (overlapped:
 *     {@code T = max(T_core, T_L1L2, ...)}, as on AMD Zen cores): {@code T = serial - overlap x
 *     (serial - overlapped)}. The probe measures it with the CSR micro-kernel with B in L2;
 * <li>{@code denseOverlap}: the same for the dense kernel (spec key {@code denseOverlap}), whose L2
 *     traffic is another kind of access: its packed B block streamed in order by every row tile,
 *     where csr's is random rows gathered. The probe measures it with the dense kernel with its
 *     packed block in L2; {@link #NOT_PROBED} (NaN) in files written before 6 Dec 2026, where the
 *     shared {@code overlap} stands in ({@link #overlapOf});
 * <li>{@code l2Gather}: the rate at which the cores gather B's rows from L2 in a sustained CSR call
 *     ({@link GatherRates}; spec keys {@code l2GatherPerCore}, {@code l2GatherAll},
 *     {@code gatherThreads}), which the model uses for the row gathers' L2 bytes in place of the
 *     streaming {@code l2PerCore}.
 * <li>{@code fullyAssociativeReuse}: the overlap and the gather rates were solved with the L1 taken
 *     as fully associative ({@code memsim.RowGatherReuse}'s four-argument form; spec key
 *     {@code l1Reuse: fullyAssociative}, and every probe with gather rates before 7 Dec 2026, which
 *     wrote no key), so the model takes the B rows' L1 hits that way for this spec, as its rates
 *     assume; probes since take the L1's sets ({@code l1Reuse: setAssociative}), as does every spec
 *     whose rates no reuse rule went into.
 * <li>{@code slowestCore}: the slowest CPU's fp32 FMA throughput over the first's, each measured
 *     alone with one thread pinned to it (spec key {@code slowestCore}; 1, or 0 in files written
 *     before 4 Dec 2026: equal cores). The rates above come from the first CPU, where the pinned
 *     pools run a single thread; a statically partitioned multi-threaded call waits for its slowest
 *     thread, so its in-core time on more than one core is stretched by {@code 1 / slowestCore}
 *     ({@link #coreStretch}). A VM's vCPUs need not be equal: the Zen 5 VM's second ran a dense
 *     layer 1.3-1.6x slower than its first while another tenant (presumably on its SMT sibling)
 *     was busy.
 * <li>{@code team} ({@link CoreTeam}; spec keys {@code teamThreads}, {@code teamCores},
 *     {@code teamFma}): the probe's team of pinned threads, the physical cores under it and its FMA
 *     pace beside each other. Up to the team's size, where the running threads outnumber the
 *     cores under them (the pools fill every core before a sibling), the in-core stretch is
 *     {@code 1 / min(slowestCore, teamFma)} ({@link CoreTeam#paceOn}), and the private caches are
 *     those cores' ({@link CoreTeam#coresUnder}): siblings share one core's ports, L1 and L2, which
 *     each CPU timed alone does not show.
 * <li>{@code oneColumn} ({@link OneColumnRates}; spec keys {@code spmvVector}, {@code spmvRow},
 *     {@code spmvTail}, {@code gemvFma}, {@code gemvRow}, {@code gemvL2}, {@code gemvL3},
 *     {@code sellSlot}, {@code sellChunk}, {@code sellTranspose}): the sparse kernels' gather dot
 *     and the dense matrix-vector product (with the product's own rates from L2 and L3), the
 *     kernels' paths at N = 1, and SELL's one-column body, which it runs once per column of B.
 * </ul>
 * {@link #NONE} (vectorBits 0): not probed; the roofline model with fitted overheads applies.
 */
public record InCoreRates(int vectorBits, double denseFmaCycles, double denseNarrowFmaCycles, double block8Cycles, double block4Cycles,
                          double block2Cycles, double oneVectorCycles, double rowBlockCycles, double wholeRowCycles, double cooEntryCycles, double cooRowCycles, double bsrWideCycles, double bsrNarrowCycles,
                          double nmSlotCycles, double l2CoreBytesPerSecond, double l3CoreBytesPerSecond, double overlap,
                          double bsrTileCycles, double nmRowCycles, boolean fixedPartsApart, double split2Cycles, double split1Cycles,
                          GatherRates l2Gather, double slowestCore, double denseOverlap, boolean fullyAssociativeReuse, boolean nmDecodeSerial,
                          CoreTeam team, OneColumnRates oneColumn) {
    /** A {@code denseOverlap} the probe did not measure: the shared {@code overlap} stands in. */
    public static final double NOT_PROBED = Double.NaN;
    public static final InCoreRates NONE = new InCoreRates(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, 0, GatherRates.NONE, 0, NOT_PROBED,
            false, false, CoreTeam.NONE, OneColumnRates.NONE);

    public InCoreRates {
        if (vectorBits < 0 || vectorBits % 64 != 0) throw new SpecException("cpu.inCore.vectorBits must be a multiple of 64, got " + vectorBits);
        double[] all = {denseFmaCycles, denseNarrowFmaCycles, block8Cycles, block4Cycles, block2Cycles, oneVectorCycles, rowBlockCycles, wholeRowCycles,
            cooEntryCycles, cooRowCycles,
            bsrWideCycles, bsrNarrowCycles, nmSlotCycles, l2CoreBytesPerSecond, l3CoreBytesPerSecond, bsrTileCycles, nmRowCycles, split2Cycles, split1Cycles};
        for (double v : all) {
            if (!(v >= 0) || Double.isInfinite(v)) throw new SpecException("cpu.inCore: cycles must not be negative, got " + v);
        }
        if (vectorBits > 0 && !(denseFmaCycles > 0 && block8Cycles > 0 && block4Cycles > 0 && block2Cycles > 0 && oneVectorCycles > 0)) {
            throw new SpecException("cpu.inCore: denseFma, block8, block4, block2 and oneVector cycles must be positive");
        }
        if (!(overlap >= 0 && overlap <= 1)) throw new SpecException("cpu.inCore.overlap must be in [0, 1], got " + overlap);
        if (!Double.isNaN(denseOverlap) && !(denseOverlap >= 0 && denseOverlap <= 1)) {
            throw new SpecException("cpu.inCore.denseOverlap must be in [0, 1], got " + denseOverlap);
        }
        if (l2Gather == null) l2Gather = GatherRates.NONE;
        if (team == null) team = CoreTeam.NONE;
        if (oneColumn == null) oneColumn = OneColumnRates.NONE;
        if (!(slowestCore >= 0 && slowestCore <= 1)) throw new SpecException("cpu.inCore.slowestCore must be in (0, 1], got " + slowestCore);
    }

    /**
     * How much longer the in-core part of a call on {@code cores} pinned threads takes than its share
     * of the first CPU's time: at the pace of the slowest CPU alone ({@code slowestCore}) or of the
     * slowest thread beside the others ({@link CoreTeam#paceOn}: SMT siblings sharing a core's ports),
     * whichever is slower.
     */
    public double coreStretch(int cores) {
        return coreStretch(cores, Math.min(slowestCore > 0 ? slowestCore : 1, team.paceOn(cores)));
    }

    /** {@link #coreStretch(int)} for a {@code slowestCore} (0: equal cores) before it is in a spec. */
    public static double coreStretch(int cores, double slowestCore) {
        return cores > 1 && slowestCore > 0 ? 1 / Math.min(1, slowestCore) : 1;
    }

    /** Whether the probe measured the dense kernel's own overlap ({@code denseOverlap}). */
    public boolean denseOverlapProbed() {
        return !Double.isNaN(denseOverlap);
    }

    /** The overlap of {@code format}'s kernel: dense's own where probed, else the shared one (csr's). */
    public double overlapOf(String format) {
        return format.equals("dense") && denseOverlapProbed() ? denseOverlap : overlap;
    }

    /** Cycles per entry of the general path's 2-vector block: its own probed rate, else the tight loop's. */
    public double generalBlock2Cycles() {
        return split2Cycles > 0 ? split2Cycles : block2Cycles;
    }

    /** Cycles per entry of the general path's 1-vector block: its own probed rate, else the tight loop's. */
    public double generalBlock1Cycles() {
        return split1Cycles > 0 ? split1Cycles : oneVectorCycles;
    }

    /** Whether the spec carries probed in-core rates. */
    public boolean present() {
        return vectorBits > 0;
    }
}
