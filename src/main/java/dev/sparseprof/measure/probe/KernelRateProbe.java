package dev.sparseprof.measure.probe;

import dev.sparseprof.hw.InCoreRates;
import dev.sparseprof.kernel.DenseGemm;
import dev.sparseprof.kernel.DenseTiling;
import dev.sparseprof.kernel.KernelVectors;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.SellSpmm;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.measure.TimingHarness;
import dev.sparseprof.memsim.RowGatherReuse;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Median;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.DoubleSupplier;
import java.util.function.ToDoubleFunction;

/**
 * The in-core rates of the project's own kernels on this machine: each kernel of the {@code kernel}
 * package run on small synthetic matrices whose A, B and C fit in L1 together (every matrix is
 * sized against this core's L1d: C, the one that grows with N, takes at most a quarter of it), so
 * the time is the loop nest's in-core time (ECM's T_core) and nothing else. Each rate is a slope:
 * <ul>
 * <li>per row, the difference of two row counts (R and R/2: the call's fixed costs cancel);
 * <li>per entry of the CSR body, the difference of two row lengths (16 and 2 entries), measured at
 *     each column-block width the kernels dispatch (N = 1, 2, 4 and 8 vectors: the tight one- and
 *     two-vector loops, one 4- and one 8-vector block), each width its own rate: a block of few
 *     vectors waits on the FMA latency (one FMA per accumulator per entry), a wide one on the load
 *     ports, so no line through the widths holds; per row and block what the short rows take
 *     beyond their entries;
 * <li>csr at N = 1, its one-column gather body, on rows of random lengths at random columns (the
 *     row and tail loops' exits mispredicted as a layer's are): per entry of the scalar tail the
 *     slope between rows shorter than one vector (up to a quarter of one, and most of one); per
 *     whole vector the slope between rows of 2-4 and of 5-7 vectors, their tails out; per row the
 *     rest of the shorter ones;
 * <li>dense at N = 1, its matrix-vector product: per row from 32 rows against 16, at K of 8 and 4
 *     vectors; per vector FMA the slope between them, per row the rest of the shorter;
 * <li>per BSR block, the difference of two block-row lengths (12 and 4 blocks of 4 x 4), so the
 *     tile's fixed work (its C stores, the strip's set-up) does not leak into the per-block rate; the
 *     fixed work per tile and strip is what the short block rows take beyond their blocks;
 * <li>per N:M slot, the difference of two row lengths (48 and 16 slots of 2:4), less the CSR body
 *     over as many entries; the row's fixed decode work apart;
 * <li>per dense vector FMA, the difference of two row counts (32 and 16 rows, K = 48): the packing
 *     of B, once per call, cancels (a difference of two K measured 1.5 cycles per FMA on the Zen 4
 *     VM, the pack's K x N copy in it, against 1.16 from rows); A, packed B and C take 26 KiB.
 * </ul>
 * Then the same CSR kernel with B sized into L2 shows how much of the L2 transfer hides behind the
 * in-core time (the overlap), the dense kernel with its packed B block in L2 the same for its own
 * streamed block ({@link #denseL2}), and a long call of it over random rows of such a B, on 1 thread and on
 * all, how fast the cores gather B's rows from L2 when they do nothing else for a whole call
 * ({@link #gather}): the short differential check ran at 2.96 ns per entry on the Zen 5 VM where
 * long calls of the same rows took 4.8-7.3. A tiny matrix on 1 thread and on all gives the call's fixed costs
 * (launch, fork/join). Every rate is in seconds per unit.
 *
 * <p>Each call is timed in a warm-up pass (dropped) and {@link #ROUNDS} rounds; every call keeps its
 * best round ({@link BestTimes}), and the rates come from those best times: a rate is a capability
 * of the core, and a tenant's time slice or a JIT recompilation of a shared body only ever slows a
 * round. (The Zen 5 VM's probe, median of 3 rounds on the old matrices, kept a row-block cost of
 * 470 cycles where its layers took about 70, most likely from C, 64 KiB at 8 vectors of 128 rows,
 * spilling out of its 48 KiB L1.) The JIT is warmed up in the first pass only ({@link #roundPlan}).
 * The transfer checks keep no best: {@link #CHECK_ROUNDS} rounds, interleaved with those, each time a
 * check's in-L1 case next to its L2 case and solve that round's overlap, of which the median is kept.
 */
public final class KernelRateProbe {
    /** Columns of the in-L1 row-body matrices: B is K x N fp32 (16 KiB at N = 8 vectors of 512 bits). */
    static final int K_L1 = 32;
    /**
     * Row lengths of the row-body matrices, each row's drawn at random in [min, max] (seeded per
     * row): a pruned layer's rows vary in length, so the branch that ends a row's loop (and that of
     * its unrolled remainder) is mispredicted about once per row; rows all of one length, which the
     * predictor learns, measured the Zen 4 VM's per-row cost at 10-17 cycles, where its layers of
     * short rows (1536 x 384 at 90%) took about 60. Both lengths enter the unrolled loop, as a
     * layer's rows do.
     */
    static final int LONG_MIN = 14, LONG_MAX = 30, SHORT_MIN = 2, SHORT_MAX = 10;
    /**
     * The transfer check: 32 rows of 24..40 entries, so the 16 rows apart hold about 500 entries
     * (16 rows of 16 did 128, and the check's time per entry moved 18% from probe to probe).
     */
    static final int CHECK_ROWS = 32, CHECK_MIN = 24, CHECK_MAX = 40;
    /**
     * The sustained gather: rows of 48..144 random columns (a pruned layer's rows at 60-90 % of
     * 384-1536 columns), as many rows as fill a quarter of L2 with C (128..1024), so that B and C
     * together take half the L2 as a layer's do.
     */
    static final int GATHER_MIN = 48, GATHER_MAX = 144;
    /**
     * csr at N = 1 (its one-column gather body): rows at random columns of K = 512 (B 2 KiB, 32 lines,
     * as a layer's B of 384-1536 floats spreads its gathers over 24-96), each matrix timed against its
     * first half of rows: 128 rows of up to 7 vectors' entries (their values and indices, up to 96 KiB,
     * stream from L2 at a few bytes a cycle; B stays in L1) and 256 rows shorter than a vector. With
     * 16 rows against 8, and 32 against 16, the per-row part read 2-38 cycles over eight probes on the
     * Zen 5 VM (7 Dec 2026): a residual of two slopes over differences of about 0.1 us, in the timer's
     * noise; the tail's rate read 0.9-2.8 there and 1.35-1.36 over three probes of these sizes.
     */
    static final int SPMV_ROWS = 128, SPMV_TAIL_ROWS = 256, SPMV_K = 512;

    /** Dense at N = 1 (its matrix-vector product): 32 rows timed against 16, at K of 8 and 4 vectors (A 16 KiB at 512 bits). */
    static final int GEMV_ROWS = 32;
    /** Vectors per row of the matrices the matrix-vector product's L2 and L3 rates are measured on (K = 512 at 512 bits). */
    static final int GEMV_STREAM_VECTORS = 32;
    /**
     * SELL's samples: 256 rows (16 chunks of 16 at 512 bits, 32 of 8 at 256) of 4 and 20 non-zeros at
     * N = 4 (the long matrix's slots, 40 KiB, in L1); its transpose between K of 2048 and 256.
     */
    static final int SELL_ROWS = 256, SELL_SHORT = 4, SELL_LONG = 20, SELL_N = 4, SELL_K_LONG = 2048, SELL_K_SHORT = 256;
    /** Dense K. */
    static final int DENSE_K = 48;
    /**
     * Row tiles of the larger dense matrix (the smaller has half as many): the rows are whole
     * multiples of the wide tile's ({@link DenseGemm#wideTileRows}: 32 and 16 rows of 4-row tiles,
     * 48 and 24 of 6-row ones), as rows past the last whole tile run one-row kernels with a
     * quarter of the tile's accumulators. The 6-row AVX2 tile measured on 32 and 16 rows (5 tiles
     * and 2 single rows against 2 tiles and 4 single rows) took the single rows' time out of the
     * difference, and the Zen 5 VM's probe at 256 bits gave 0.43 cycles per vector FMA, below the 2
     * FMA ports' 0.5, where its layers ran about 0.65.
     */
    static final int DENSE_TILES = 8;
    /** Rows of the dense one-vector measurement: its 8-row tiles and small C take twice as many (4 tiles apart, not 2). */
    static final int DENSE_NARROW_ROWS = 64;
    static final int COO_K = 128;
    static final int COO_ROWS = 64;
    static final int COO_LONG = 64;
    static final int COO_SHORT = 8;
    /** BSR: block rows of 12 and 4 blocks of 4 x 4 (K = 48 and 16), 32 and 16 rows. */
    static final int BSR_K_LONG = 48;
    static final int BSR_K_SHORT = 16;
    static final int BSR_ROWS = 32;
    /** 2:4: rows of 48 and 16 kept slots (K = 96 and 32), 32 and 16 rows, N = 2 vectors. */
    static final int NM_K_LONG = 96;
    static final int NM_K_SHORT = 32;
    static final int NM_ROWS = 32;
    /**
     * Vectors of N at which the N:M decode is measured (2:4 less csr on the same slots): 4, a block
     * of the general path for both kernels (csr's tight loops take 1 and 2). Before 7 Dec 2026 it was
     * 2, and the difference held the general path's penalty over csr's tight loop besides the decode.
     */
    static final int NM_DECODE_VECTORS = 4;
    private final int trials;
    private final double minTrialSeconds;
    private final int l1dLineBytes;
    private final int l1dWays;
    private final int lanes = KernelVectors.FLOATS.length();
    /** The machine's fp32 FMA rate of one thread, GFLOP/s, that the rounds' canary is read against (NaN: no canary). */
    private double fmaReference = Double.NaN;
    /** The L3's size ({@link #withL3}); 0: the matrix-vector product's L3 rate is not measured. */
    private long l3Bytes;
    /** What the last {@link #run} read over its rounds (null before a run, or without a reference). */
    private RoundSpeeds roundSpeeds;

    /** On an L1d of 64-byte lines and 8 ways. */
    public KernelRateProbe(int trials, double minTrialSeconds) {
        this(trials, minTrialSeconds, 64, 8);
    }

    /** {@code l1dLineBytes}, {@code l1dWays}: the L1d's geometry, with which the transfer checks take the B rows' L1 hits as the model does. */
    public KernelRateProbe(int trials, double minTrialSeconds, int l1dLineBytes, int l1dWays) {
        this.trials = trials;
        this.minTrialSeconds = minTrialSeconds;
        this.l1dLineBytes = l1dLineBytes;
        this.l1dWays = l1dWays;
    }

    /** The B rows' L1 hit share of a row sweep, as the model's analytical traffic takes it (set-associative LRU). */
    private double l1HitShare(long l1dBytes, double bBytes, double sweepBytes, double touchShare) {
        int sets = (int) Math.max(1, l1dBytes / ((long) l1dLineBytes * l1dWays));
        return RowGatherReuse.hitShare(l1dBytes, bBytes, sweepBytes, touchShare, l1dLineBytes, sets);
    }

    /**
     * @param l1dBytes            the L1d size: the row-body matrices keep C in a quarter of it
     * @param l2Bytes             the L2 size (B of the transfer check is sized to a quarter of it)
     * @param l2ReadBytesPerSecond the probe's 1-thread L2 read bandwidth
     * @param threads             the all-cores thread count (fork/join)
     */
    public KernelRates run(long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, int threads) {
        return run(l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, () -> 1, true);
    }

    /**
     * As {@link #run(long, long, double, int)} on cores of unequal speed: {@code slowestCore}, the
     * slowest CPU's FMA throughput over the first's ({@link CoreSpeeds}), stretches the in-core
     * part of the all-threads gather call as the model stretches it; it is asked once, after the
     * rates' rounds and before the gathers, so that a caller can take the CPUs' speeds again that
     * many seconds after its first take ({@link CoreSpeeds#measureSettled}); {@code l2Shared}: whether
     * the cores share the L2 (false: one per core, as on the Zen 4 and Intel VMs), which decides how
     * far the sustained gather's all-core rate may fall below its 1-core rate before it is taken again
     * ({@link #gatherAgrees}).
     */
    public KernelRates run(long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, int threads, DoubleSupplier slowestCore, boolean l2Shared) {
        long t0 = System.nanoTime();
        BestTimes best = new BestTimes();
        // A first pass only warms every kernel and column-block variant up: a kernel's first
        // warm-up can settle on the JIT's first tier while the last is still compiling (on a loaded
        // machine the compiler threads wait for a core), and measure it 10x too slow.
        try (WorkerPool one = WorkerPool.pinned(1); WorkerPool all = WorkerPool.pinned(Math.max(1, threads))) {
            Timer warm = (format, a, n, pool) -> {
                warmedPlan(format, a, n, pool); // the JIT's warm-up: every kernel and variant compiled before any round
                return 1e-9 * (1 + a.rows() + a.cols()); // any positive, growing with the matrix: the pass is dropped
            };
            rates(warm, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, null);
            transferChecks(warm, l1dBytes, l2Bytes, l2ReadBytesPerSecond, one);
            warm.seconds("dense", denseLayerWarmUp(DenseGemm.tiling()), denseLayerWarmUpColumns(DenseGemm.tiling()), one);
            Timer timed = (format, a, n, pool) -> best.keep(format, a, n, pool.threads(), timeCalls(roundPlan(format, a, n, pool), pool, 0.25));
            // the transfer checks keep no best: each round solves its own overlap from its own times
            Timer checkTimed = (format, a, n, pool) -> timeCalls(roundPlan(format, a, n, pool), pool, 0.25);
            List<TransferChecks> checks = new ArrayList<>();
            Canary canary = Double.isNaN(fmaReference) ? null : new Canary(new SpeedCanary(one), fmaReference);
            for (int i = 0; i < Math.max(ROUNDS, CHECK_ROUNDS); i++) {
                if (i < ROUNDS) {
                    rates(timed, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, null);
                    if (canary != null) canary.roundEnded();
                }
                if (i < CHECK_ROUNDS) checks.add(transferChecks(checkTimed, l1dBytes, l2Bytes, l2ReadBytesPerSecond, one));
            }
            Timer bestOf = (format, a, n, pool) -> best.of(format, a, n, pool.threads());
            TransferChecks checked = TransferChecks.median(checks);
            KernelRates r = ratesOrNull(bestOf, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, checked);
            int extra = 0;
            while (anotherRound(canary == null || canary.quietRounds > 0, solved(r), extra, (System.nanoTime() - t0) * 1e-9)) {
                rates(timed, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, null);
                if (canary != null) canary.roundEnded();
                extra++;
                r = ratesOrNull(bestOf, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, checked);
            }
            boolean perRowSolved = solved(r);
            // a rate that still cannot be had: its one line
            if (r == null) r = rates(bestOf, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, checked);
            roundSpeeds = canary == null ? null : canary.speeds(extra, perRowSolved);
            double slowest = slowestCore.getAsDouble();
            KernelRates.Gather narrow = gather(r, 1, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, slowest, l2Shared, one, all);
            KernelRates.Gather wide = gather(r, 2, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, slowest, l2Shared, one, all);
            return r.withGathers(narrow, wide, (System.nanoTime() - t0) * 1e-9);
        }
    }

    /** The canary's readings around the rounds: a round is quiet when the readings before and after it both are. */
    private static final class Canary {
        private final SpeedCanary meter;
        private double reference;
        private double before;
        private final List<double[]> rounds = new ArrayList<>();
        int quietRounds;

        Canary(SpeedCanary meter, double reference) {
            this.meter = meter;
            this.reference = reference;
            this.before = read();
        }

        private double read() {
            double r = meter.reading().slowest();
            reference = Math.max(reference, r);
            return r;
        }

        void roundEnded() {
            double after = read();
            rounds.add(new double[] {before, after});
            quietRounds = 0;
            for (double[] r : rounds) if (Math.min(r[0], r[1]) >= QUIET_SPEED * reference) quietRounds++;
            before = after;
        }

        RoundSpeeds speeds(int extra, boolean perRowSolved) {
            double lowest = Double.POSITIVE_INFINITY;
            double highest = 0;
            for (double[] r : rounds) {
                lowest = Math.min(lowest, Math.min(r[0], r[1]) / reference);
                highest = Math.max(highest, Math.max(r[0], r[1]) / reference);
            }
            return new RoundSpeeds(lowest, highest, quietRounds, extra, perRowSolved);
        }
    }

    /**
     * A round's plan of a case: built afresh (new B and C, as every round's were: where they land can
     * change a time, and the rounds' best is over those draws too) and run {@link #ROUND_REWARM_CALLS}
     * times untimed, with no JIT warm-up: the warm-up pass compiled every kernel and variant. A full
     * warm-up ({@link #WARM_UP}, at least 0.1 s) for every call of every round (some 56 cases, 4 rounds)
     * was most of {@code calibrate --probe}'s time.
     */
    private static CpuRunner.Prepared<?> roundPlan(String format, MatrixView a, int n, WorkerPool pool) {
        CpuRunner.Prepared<?> p = plan(format, a, n, pool);
        long[] threadNanos = new long[pool.threads()];
        for (int i = 0; i < ROUND_REWARM_CALLS; i++) p.plan().run(p.b(), p.c(), pool, threadNanos);
        return p;
    }

    /** Untimed calls a round runs on its fresh plan before timing it (the core's caches, TLB and predictors; the JIT is warm). */
    static final int ROUND_REWARM_CALLS = 20;

    /** Seconds of one call of a kernel on a matrix at N columns on a pool: measured, or a round's best. */
    @FunctionalInterface
    interface Timer {
        double seconds(String format, MatrixView a, int n, WorkerPool pool);
    }

    /** Each call's best time over the rounds, keyed by kernel, matrix shape and contents, N and threads. */
    static final class BestTimes {
        private final Map<String, Double> best = new HashMap<>();

        double keep(String format, MatrixView a, int n, int threads, double seconds) {
            best.merge(key(format, a, n, threads), seconds, Math::min);
            return seconds;
        }

        double of(String format, MatrixView a, int n, int threads) {
            Double s = best.get(key(format, a, n, threads));
            if (s == null) throw new IllegalStateException("kernel probe: no round timed " + key(format, a, n, threads));
            return s;
        }

        private static String key(String format, MatrixView a, int n, int threads) {
            return format + " " + a.rows() + "x" + a.cols() + " #" + Arrays.hashCode(a.toDense()) + " n" + n + " t" + threads;
        }
    }

    /**
     * The rates from one pass of calls; {@code checks}: the transfer checks' median over their rounds,
     * given only to the pass over the best times, the only one whose rates are checked and kept (null
     * otherwise, and then so is the result).
     */
    private KernelRates rates(Timer t, long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, int threads, WorkerPool one, WorkerPool all,
                              long t0, TransferChecks checks) {
        boolean last = checks != null;
        // the CSR row body at each block width the kernels dispatch (LoopNests): N = 1 and 2 vectors
        // take the tight all-rows loops, 4 and 8 vectors one column block of the general path.
        RowRates[] body = new RowRates[WIDTHS.length];
        for (int i = 0; i < WIDTHS.length; i++) body[i] = rowRates(t, WIDTHS[i], rowsFor(l1dBytes, WIDTHS[i], lanes), one, last);
        RowRates one1 = body[0];
        RowRates two = body[1];
        RowRates four = body[2];
        RowRates eight = body[3];
        // the general path's 2- and 1-vector blocks (N:M at N = 1 or 2 vectors, every N's
        // tail): N = 6 and 5 vectors run a 4-vector block and then that block, each entry once in each
        RowRates six = rowRates(t, 6, rowsFor(l1dBytes, 6, lanes), one, last);
        RowRates five = rowRates(t, 5, rowsFor(l1dBytes, 5, lanes), one, last);
        double split2 = Math.max(0, six.perEntry() - four.perEntry());
        double split1 = Math.max(0, five.perEntry() - four.perEntry());
        double wholeRow = (one1.perRow() + two.perRow()) / 2;
        double rowBlock = (four.perRow() + eight.perRow()) / 2;
        // COO: its run search over the CSR body, per triple and per row, on rows as long as a pruned
        // layer's (64 and 8 of 128 columns; N = one vector keeps B in L1)
        MatrixView cooLong = variableRows(COO_ROWS, COO_K, COO_LONG - 8, COO_LONG + 8);
        MatrixView cooShort = variableRows(COO_ROWS, COO_K, COO_SHORT - 4, COO_SHORT + 4);
        RowRates coo = slopes(t, "coo", cooLong, cooShort, lanes, one);
        RowRates csrOfCoo = slopes(t, "csr", cooLong, cooShort, lanes, one);
        double cooEntry = Math.max(0, coo.perEntry() - csrOfCoo.perEntry());
        double cooRow = Math.max(0, coo.perRow() - csrOfCoo.perRow());
        // 2:4: 2 kept of every 4 columns, rows of 48 and 16 slots, less the CSR body over as many entries,
        // at N = NM_DECODE_VECTORS, where both run the general path's block: the difference is the decode
        // pass alone (at 1 or 2 vectors csr would run its tight loop and the difference would hold the
        // general path's penalty too, which split1 / split2 count)
        int nDecode = NM_DECODE_VECTORS * lanes;
        double nmLong = perRowOf(t, "2:4", twoFour(NM_ROWS, NM_K_LONG), twoFour(NM_ROWS / 2, NM_K_LONG), NM_ROWS / 2, nDecode, one)
                - perRowOf(t, "csr", twoFour(NM_ROWS, NM_K_LONG), twoFour(NM_ROWS / 2, NM_K_LONG), NM_ROWS / 2, nDecode, one);
        double nmShort = perRowOf(t, "2:4", twoFour(NM_ROWS, NM_K_SHORT), twoFour(NM_ROWS / 2, NM_K_SHORT), NM_ROWS / 2, nDecode, one)
                - perRowOf(t, "csr", twoFour(NM_ROWS, NM_K_SHORT), twoFour(NM_ROWS / 2, NM_K_SHORT), NM_ROWS / 2, nDecode, one);
        int slotsLong = NM_K_LONG / 2;
        int slotsShort = NM_K_SHORT / 2;
        double nmSlot = Math.max(0, (nmLong - nmShort) / (slotsLong - slotsShort));
        double nmRow = Math.max(0, nmShort - slotsShort * nmSlot);
        // BSR 4x4, every block dense, one wide strip (4 vectors on 32 registers, 2 on 16:
        // kernel.BlockRowTiles.WIDE_VECTORS) and one narrow strip: per block from block rows of 12 and
        // 4 blocks, per tile and strip what the short block rows take beyond their blocks
        BlockRates wide = bsrRates(t, wideVectors() * lanes, one);
        BlockRates narrow = bsrRates(t, lanes, one);
        double bsrTile = (wide.perTile() + narrow.perTile()) / 2;
        // dense: per vector FMA, wide (4 vectors) and narrow (1 vector) micro-kernels, from two K
        double denseWide = denseWideFma(t, one);
        double denseNarrow = perFma(t, 1, DENSE_NARROW_ROWS, one);
        // csr at N = 1, its one-column gather body (kernel.GatherRows), on rows of random lengths at random
        // columns, as a pruned layer's: per tail entry the slope between rows shorter than a vector (up to a
        // quarter of one, and most of one); per whole vector and per row from rows of 2-4 and of 5-7 vectors,
        // their tails taken out (each loop's exit mispredicted once a row, as a layer's rows of varying length do)
        SpmvSample quarter = spmvSample(t, randomRows(SPMV_TAIL_ROWS, SPMV_K, 1, Math.max(1, lanes / 4)), one);
        SpmvSample most = spmvSample(t, randomRows(SPMV_TAIL_ROWS, SPMV_K, 3 * lanes / 4, lanes - 1), one);
        SpmvSample few = spmvSample(t, randomRows(SPMV_ROWS, SPMV_K, 2 * lanes, 4 * lanes), one);
        SpmvSample many = spmvSample(t, randomRows(SPMV_ROWS, SPMV_K, 5 * lanes, 7 * lanes), one);
        double spmvTail = Math.max(0, (most.seconds() / most.rows() - quarter.seconds() / quarter.rows())
                / (most.tails() / most.rows() - quarter.tails() / quarter.rows()));
        double fewBody = few.seconds() - few.tails() * spmvTail;
        double manyBody = many.seconds() - many.tails() * spmvTail;
        double spmvVector = (manyBody / many.rows() - fewBody / few.rows()) / (many.vectors() / many.rows() - few.vectors() / few.rows());
        double spmvRow = Math.max(0, (fewBody - few.vectors() * Math.max(0, spmvVector)) / few.rows());
        // dense at N = 1, its matrix-vector product (kernel.DenseGemv): per row from 32 rows against 16, at K of 8
        // and 4 vectors; per vector FMA the slope between them, per row the rest of the shorter
        double gemvLong = perRowOf(t, "dense", rowsMatrix(GEMV_ROWS, 8 * lanes, 8 * lanes, 1), rowsMatrix(GEMV_ROWS / 2, 8 * lanes, 8 * lanes, 1),
                GEMV_ROWS / 2, 1, one);
        double gemvShort = perRowOf(t, "dense", rowsMatrix(GEMV_ROWS, 4 * lanes, 4 * lanes, 1), rowsMatrix(GEMV_ROWS / 2, 4 * lanes, 4 * lanes, 1),
                GEMV_ROWS / 2, 1, one);
        double gemvFma = (gemvLong - gemvShort) / 4;
        double gemvRow = Math.max(0, gemvShort - 4 * Math.max(0, gemvFma));
        // SELL (kernel.SellSpmm), its one-column body once per column of B: per chunk and column from chunks of
        // rows of 4 and 20 non-zeros at N = 4 (the chunks' slots and B's transposed columns in L1), each matrix
        // timed against its first half (the transpose and the call cancel); per slot vector the slope between
        // them; per transposed element of B the slope between K of 2048 and 256 at N = one vector (one chunk
        // of one-entry rows: the same chunk work at both K)
        double sellShort = sellPerChunkColumn(t, SELL_SHORT, one);
        double sellLong = sellPerChunkColumn(t, SELL_LONG, one);
        double sellSlot = (sellLong - sellShort) / (SELL_LONG - SELL_SHORT);
        double sellChunk = Math.max(0, sellShort - SELL_SHORT * Math.max(0, sellSlot));
        double sellTranspose = (t.seconds(SellSpmm.NAME, rowsMatrix(lanes, SELL_K_LONG, 1, 1), lanes, one)
                - t.seconds(SellSpmm.NAME, rowsMatrix(lanes, SELL_K_SHORT, 1, 1), lanes, one)) / ((double) (SELL_K_LONG - SELL_K_SHORT) * lanes);
        // fixed costs of a call: one row of one entry, N = one vector
        double launch = t.seconds("csr", rowsMatrix(1, K_L1, 1, 1), lanes, one);
        double forkJoin = threads > 1 ? Math.max(0, (t.seconds("csr", rowsMatrix(threads, K_L1, 1, 1), lanes, all) - launch) / (threads - 1)) : 0;
        double gemvL2 = gemvBytesPerSecond(t, l2Bytes / 2, launch, one);
        double gemvL3 = l3Bytes >= 8 * l2Bytes ? gemvBytesPerSecond(t, 4 * l2Bytes, launch, one) : 0;
        if (!last) return null; // a pass that only times the calls
        {
            double[] positive = {denseWide, denseNarrow, wide.perBlock(), narrow.perBlock()};
            for (double v : positive) {
                if (!(v > 0)) throw new SparseprofException("kernel probe: the dense or bsr4x4 micro-kernel measured no time per unit in "
                        + ROUNDS + " rounds (the machine is too noisy to probe)");
            }
        }
        return new KernelRates(lanes * 32, denseWide, denseNarrow, eight.perEntry(), four.perEntry(), two.perEntry(), one1.perEntry(), rowBlock,
                wholeRow, cooEntry, cooRow, wide.perBlock(), narrow.perBlock(), nmSlot, bsrTile, nmRow, split2, split1,
                launch, forkJoin, checks.csr().overlap(), checks.csr().measuredSeconds(), checks.csr().coreSeconds(), checks.csr().transferSeconds(),
                checks.dense(), null, null, (System.nanoTime() - t0) * 1e-9,
                oneColumn(spmvVector, spmvRow, spmvTail, gemvFma, gemvRow, sellSlot, sellChunk, sellTranspose, gemvL2, gemvL3));
    }

    /**
     * The bytes of A per second that dense at N = 1 ({@code kernel.DenseGemv}) streams on one core
     * from the level that holds about {@code bytes} (half the L2; four times the L2, in L3): one call
     * over a matrix of rows of {@link #GEMV_STREAM_VECTORS} vectors (calls back to back: A stays where it
     * is, B and C in L1), the call's fixed cost ({@code launch}) taken out; 0 where the call measured
     * no more than that. Its four row streams take lines at a pace of their own: on the Zen 5 VM
     * (8 Dec 2026, 512 bits) 256 rows of 384 in L2 took about 2 cycles per vector FMA (~93 GB/s) and
     * 1536 rows of 384 in L3 about 3.2 (~58 GB/s), where 16 rows in L1 took 0.7-0.9 and the probe's
     * one-stream reads give ~220 GB/s from L2 and ~80 from L3.
     */
    private double gemvBytesPerSecond(Timer t, long bytes, double launch, WorkerPool one) {
        int k = GEMV_STREAM_VECTORS * lanes;
        long rowBytes = (long) k * Float.BYTES;
        int rows = (int) Math.max(GEMV_ROWS, bytes / rowBytes / 4 * 4);
        double seconds = t.seconds("dense", rowsMatrix(rows, k, k, 1), 1, one) - launch;
        return seconds > 0 ? rows * rowBytes / seconds : 0;
    }

    /**
     * The one-token rates, each body's left out (zeros: not probed) where its per-unit rate solved
     * to 0 or below: those slopes are differences of tenths of a microsecond (the matrix-vector
     * product's of about 50 ns), which a disturbed minute can invert, and the rest of the probe
     * stands without them ({@link #solved} asks for extra rounds first).
     */
    static KernelRates.OneColumn oneColumn(double spmvVector, double spmvRow, double spmvTail, double gemvFma, double gemvRow,
                                           double sellSlot, double sellChunk, double sellTranspose, double gemvL2, double gemvL3) {
        boolean spmv = spmvVector > 0;
        boolean gemv = gemvFma > 0;
        boolean sell = sellSlot > 0 && sellTranspose > 0;
        return new KernelRates.OneColumn(spmv ? spmvVector : 0, spmv ? spmvRow : 0, spmv ? spmvTail : 0, gemv ? gemvFma : 0, gemv ? gemvRow : 0,
                sell ? sellSlot : 0, sell ? sellChunk : 0, sell ? sellTranspose : 0, gemv ? gemvL2 : 0,
                gemv ? gemvL3 : 0);
    }

    /**
     * SELL's seconds per chunk and column of B on {@link #SELL_ROWS} rows of {@code len} non-zeros at
     * N = {@link #SELL_N}: the matrix timed against its first half, over the chunks and columns apart.
     */
    private double sellPerChunkColumn(Timer t, int len, WorkerPool pool) {
        MatrixView m = rowsMatrix(SELL_ROWS, SPMV_K, len, 1);
        int half = SELL_ROWS / 2;
        double apart = t.seconds(SellSpmm.NAME, m, SELL_N, pool) - t.seconds(SellSpmm.NAME, firstRows(m, half), SELL_N, pool);
        return apart / ((double) half / lanes * SELL_N);
    }

    /**
     * Rounds of the transfer checks ({@link #transferChecks}), each solving its overlaps from its own
     * times, of which the probe keeps the median. The best of each call over the rounds, which the
     * rates take, paired an in-L1 time and an L2 time from different rounds, seconds apart, each
     * on its own draw of B's pages: csr's overlap is the small difference of two such calls (about
     * 2 us of some 10 us, mostly B's 512 KiB aligned copy) against the in-L1 rate, and four probes
     * on the Intel VM within three minutes solved 0.25, 0.93, 0.66 and 0.58 from L2 times of 5.16,
     * 3.23, 3.97 and 4.16 ns per entry beside in-L1 ones of 2.73-2.94.
     */
    static final int CHECK_ROUNDS = 9;

    /** One round of both transfer checks, or their median over rounds: csr's ({@link #csrL2}) and dense's ({@link #denseL2}; null where it has none). */
    record TransferChecks(KernelRates.Transfer csr, KernelRates.DenseL2 dense) {
        /** Each check's median over the rounds ({@link KernelRates.Transfer#median}); dense's keeps its shape. */
        static TransferChecks median(List<TransferChecks> rounds) {
            List<KernelRates.DenseL2> dense = rounds.stream().map(TransferChecks::dense).filter(d -> d != null).toList();
            return new TransferChecks(KernelRates.Transfer.median(rounds.stream().map(TransferChecks::csr).toList()),
                    dense.isEmpty() ? null : new KernelRates.DenseL2(dense.get(0).k(), dense.get(0).n(),
                            KernelRates.Transfer.median(dense.stream().map(KernelRates.DenseL2::transfer).toList())));
        }
    }

    /** A transfer check's times (seconds per unit) and the overlap solved from them ({@link #overlap}). */
    static KernelRates.Transfer solve(double core, double transfer, double measured) {
        return new KernelRates.Transfer(measured, core, transfer, overlap(core, transfer, measured));
    }

    /** The median of {@code f} over {@code xs} (the mean of the middle two of an even count). */
    static <T> double medianOf(List<T> xs, ToDoubleFunction<T> f) {
        return Median.of(xs.stream().mapToDouble(f).toArray());
    }

    /**
     * One round of the transfer checks, each with its in-L1 rate timed next to its L2 case (a drift
     * between the two goes straight into the overlap): csr's and dense's.
     */
    private TransferChecks transferChecks(Timer t, long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, WorkerPool one) {
        KernelRates.Transfer csr = csrL2(t, l1dBytes, l2Bytes, l2ReadBytesPerSecond, one);
        return new TransferChecks(csr, denseL2(t, denseWideFma(t, one), l1dBytes, l2ReadBytesPerSecond, one));
    }

    /**
     * Csr's transfer check: the 8-vector row body in L1 (its per-entry and per-row rates, as the
     * rates' pass times them), then 8 vectors over a B of a quarter of L2 at random columns (every B
     * row from L2): per entry from two row counts, against the in-L1 rate and the B rows' L2 bytes at
     * the 1-thread L2 read bandwidth.
     */
    private KernelRates.Transfer csrL2(Timer t, long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, WorkerPool one) {
        RowRates eight = rowRates(t, 8, rowsFor(l1dBytes, 8, lanes), one, false);
        int n8 = 8 * lanes;
        int kL2 = (int) Math.max(64, l2Bytes / 4 / ((long) n8 * Float.BYTES));
        int rows8 = CHECK_ROWS;
        MatrixView check = randomRows(rows8, kL2, CHECK_MIN, CHECK_MAX);
        long checkEntries = entries(check, rows8 / 2, rows8);
        double measured = (t.seconds("csr", check, n8, one) - t.seconds("csr", firstRows(check, rows8 / 2), n8, one)) / checkEntries;
        double core = eight.perRow() * (rows8 / 2) / checkEntries + eight.perEntry();
        // the B rows that miss L1: LRU's share of the rows' reuse, as the model takes it (memsim.RowGatherReuse)
        double bBytes = (double) kL2 * n8 * Float.BYTES;
        double meanRow = (double) checkEntries / (rows8 / 2);
        double transfer = n8 * Float.BYTES * (1 - l1HitShare(l1dBytes, bBytes, meanRow * n8 * Float.BYTES, meanRow / kL2))
                / l2ReadBytesPerSecond;
        return solve(core, transfer, measured);
    }

    /**
     * The sustained row gather: one CSR call at {@code blocks} blocks of 8 vectors (1, or 2: the
     * rows the kernel walks once per block, {@code hw.GatherRates}) over {@link #GATHER_MIN}.. random columns
     * of a B of a quarter of L2, on 1 thread and on all, each the median of its calls over
     * {@link #GATHER_ALLOCATIONS} fresh allocations of B and C (the median of those): unlike an
     * in-core rate, a gather's speed depends on where B's pages land in the physically indexed L2,
     * which each allocation draws anew, as each layer's does; the luckiest of them is no rate a layer
     * sees (on the Zen 5 VM the same call ran 4.8-6.4 ns per entry from one JVM to the next). Less the
     * call's fixed costs and B's private copies (read and written once at the streaming rate, as the
     * model charges them), the time is what the ECM composition gives for the in-core time (the
     * probed 8-vector rates) and the B rows' L2 bytes at the gather bandwidth, which is solved for
     * ({@link #transferSeconds}), at most the streaming read's. Where the 1-thread call ran faster
     * than the composition with the transfer check's overlap allows even at the streaming rate, the
     * rate stays there and the overlap is solved from the call ({@link #gatherOverlap}); the
     * all-threads rate is solved with that overlap, as the model composes both.
     */
    private KernelRates.Gather gather(KernelRates r, int blocks, long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, int threads,
                                      double slowestCore, boolean l2Shared, WorkerPool one, WorkerPool all) {
        int n8 = 8 * lanes * blocks;
        long rowBytes = (long) n8 * Float.BYTES;
        int k = (int) Math.max(2L * GATHER_MAX, l2Bytes / 4 / rowBytes);
        int rows = (int) Math.max(128, Math.min(1024, l2Bytes / 4 / rowBytes));
        MatrixView a = randomRows(rows, k, GATHER_MIN, GATHER_MAX);
        long entries = entries(a, 0, rows);
        double bBytes = (double) k * rowBytes;
        double meanRow = (double) entries / rows;
        double l2 = entries * rowBytes * (1 - l1HitShare(l1dBytes, bBytes, meanRow * rowBytes, meanRow / k));
        double copy = 2 * bBytes / l2ReadBytesPerSecond;
        double core = (r.rowBlockSeconds() * rows + r.block8Seconds() * entries) * blocks;
        int p = Math.max(1, threads);
        double measured = 0;
        double coreRate = 0;
        double overlap = r.overlap();
        double allMeasured = 0;
        double allRate = 0;
        for (int attempt = 0; attempt <= GATHER_RETRIES; attempt++) {
            double m = Math.max(0, medianCallSeconds(a, n8, one) - r.launchSeconds() - copy);
            double rate = Math.min(l2ReadBytesPerSecond, l2 / transferSeconds(core, m, r.overlap()));
            if (rate > coreRate || (rate == coreRate && m < measured)) {
                measured = m;
                coreRate = rate;
                overlap = gatherOverlap(core, l2 / rate, m, r.overlap());
            }
            // the fastest all-threads call of the attempts, as the fastest 1-thread one above: a tenant's
            // burst only slows a call (7 Dec, 256 bits: one attempt's all-threads call ran 1.4x its 1-thread
            // one where the streaming read scaled 1.93x; the last attempt's call was kept, and the spec's
            // all-threads gather rate came out 131 GB/s where the day's other probes read 198-234)
            double allCall = p > 1 ? Math.max(0, medianCallSeconds(a, n8, all) - r.launchSeconds() - r.forkJoinSeconds() * (p - 1) - copy) : measured;
            allMeasured = p > 1 && attempt > 0 ? Math.min(allMeasured, allCall) : allCall;
            // each thread its nnz-balanced share of the rows: its share of the in-core time (at the slowest
            // core's pace, as the model has it) and of the bytes
            allRate = Math.min(l2ReadBytesPerSecond * p, l2 / transferSeconds(core / p * InCoreRates.coreStretch(p, slowestCore), allMeasured, overlap));
            if (gatherAgrees(coreRate, allRate, p, l2Shared)) break;
        }
        return new KernelRates.Gather(entries, l2, core, measured, allMeasured, p, coreRate, allRate, overlap);
    }

    /**
     * The overlap of a gather call that took {@code measured} with {@code core} in-core and its B
     * rows' {@code transfer} at the solved rate: the transfer check's {@code checkOverlap} where that
     * composition gives the call its time (the rate was solved from it), else, the rate held at the
     * streaming read's and the call faster than the composition, the overlap solved from the call
     * ({@link #overlap}), never below the check's.
     */
    static double gatherOverlap(double core, double transfer, double measured, double checkOverlap) {
        double composed = core + transfer - checkOverlap * Math.min(core, transfer);
        return measured < composed ? Math.max(checkOverlap, overlap(core, transfer, measured)) : checkOverlap;
    }

    /**
     * Times the gather is taken again when its 1-core and all-core rates disagree ({@link #gatherAgrees}):
     * once on the Zen 4 VM (6 Dec) a tenant's burst held the 1-core call at 68.5 GB/s where the nine
     * probes around it read 100-117, and it took the probe's held-out error from 6.5-11.8 % to 21.5 %.
     */
    static final int GATHER_RETRIES = 2;

    /**
     * Whether the gather's 1-core and all-core rates can both be true. Cores cannot each gather faster
     * than one core alone: an all-core rate per core more than {@link #GATHER_AGREEMENT} above the
     * 1-core rate means the 1-core call was disturbed. Where each core has its own L2
     * ({@code l2Shared} false) nothing is contended either (B sits in each core's L2), so one more
     * than that factor below means the all-core call was; where the L2 is shared, a lower all-core
     * rate is contention, which layers see too. (Undisturbed, the all-core rate per core was 0.86-1.07x
     * the 1-core one in 21 probes on the Zen 4 VM, 6 Dec; disturbed draws read 0.37x, 0.71x and 1.28x.)
     */
    static boolean gatherAgrees(double coreRate, double allRate, int threads, boolean l2Shared) {
        if (threads <= 1) return true;
        double perCore = allRate / threads;
        return perCore <= coreRate * GATHER_AGREEMENT && (l2Shared || perCore * GATHER_AGREEMENT >= coreRate);
    }

    /** See {@link #gatherAgrees}. */
    static final double GATHER_AGREEMENT = 1.25;

    /** Fresh allocations of B and C the gather is timed on. */
    static final int GATHER_ALLOCATIONS = 5;

    /** The median over {@link #GATHER_ALLOCATIONS} fresh plans of each one's median call, after its warm-up. */
    private double medianCallSeconds(MatrixView a, int n, WorkerPool pool) {
        double[] perPlan = new double[GATHER_ALLOCATIONS];
        for (int i = 0; i < perPlan.length; i++) perPlan[i] = timeCalls(warmedPlan("csr", a, n, pool), pool, 0.5);
        Arrays.sort(perPlan);
        return perPlan[perPlan.length / 2];
    }

    /**
     * The transfer time {@code T} for which the ECM composition of in-core {@code core} and
     * {@code T} gives {@code measured}: {@code core + T - overlap x min(core, T)}, which grows with T
     * (by {@code 1 - overlap} below {@code core}, by 1 above). A measured time at or under the in-core
     * one leaves no time to the transfer: then the smallest positive one (the caller's cap, the
     * streaming rate, applies).
     */
    static double transferSeconds(double core, double measured, double overlap) {
        double atCore = core * (2 - overlap);
        double transfer = measured >= atCore ? measured - core * (1 - overlap) : overlap < 1 ? (measured - core) / (1 - overlap) : 0;
        return Math.max(transfer, 1e-15);
    }

    /**
     * With a speed canary read over the rounds ({@link SpeedCanary} on the 1-thread pool, before the
     * first round and after each), against {@code fp32GflopsPerThread}, the machine's one-thread fp32
     * FMA rate (the probe's own peak: {@link MachineProbe}) or the canary's best reading, whichever is
     * higher. Every call keeps its best round, so one quiet round is enough; where no round was
     * quiet (the canary below {@link #QUIET_SPEED} of that before or after it: another tenant on the
     * core for the whole pass, as on the Zen 5 VM's 512-bit probe of 7 Dec 16:56 UTC, whose dense and
     * 2:4 rates came out 25-230 % slow), more rounds are taken, up to {@link #MAX_EXTRA_ROUNDS} and
     * while the pass has run under {@link #EXTRA_ROUNDS_UNTIL_SECONDS}. With or without a reference,
     * rounds are also taken while a per-row cost solves to 0 ({@link #solved}).
     */
    public KernelRateProbe withFmaReference(double fp32GflopsPerThread) {
        this.fmaReference = fp32GflopsPerThread;
        return this;
    }

    /**
     * The L3's size ({@code l3Bytes}; 0: none or not known): with one of at least 8 L2s, the run also
     * measures the matrix-vector product's rate from L3 ({@code KernelRates.OneColumn#gemvL3BytesPerSecond}).
     */
    public KernelRateProbe withL3(long l3Bytes) {
        this.l3Bytes = l3Bytes;
        return this;
    }

    /**
     * What the canary read over the last run's rounds: the lowest and highest reading over the
     * reference, how many rounds were quiet and how many were taken beyond {@link #ROUNDS}; null
     * where no reference was given.
     */
    public record RoundSpeeds(double lowest, double highest, int quietRounds, int extraRounds, boolean perRowSolved) {
        /** {@code the FMA canary read 0.92-1.00 of the one-thread peak; 4 of 4 rounds quiet (>= 0.90 before and after), 0 extra}. */
        public String describe() {
            return String.format(Locale.ROOT, "the FMA canary read %.2f-%.2f of the one-thread peak; %d of %d rounds quiet (>= %.2f before and after), %d extra%s",
                    lowest, highest, quietRounds, ROUNDS + extraRounds, QUIET_SPEED, extraRounds,
                    perRowSolved ? "" : "; coo's or the N:M decode's per-row cost, or a one-token rate, still solved to 0");
        }
    }

    public RoundSpeeds roundSpeeds() {
        return roundSpeeds;
    }

    /** A round is quiet when the canary read at least this share of the reference before and after it (measure's minSpeed too). */
    public static final double QUIET_SPEED = 0.90;
    /** The most rounds taken beyond {@link #ROUNDS} while none was quiet. */
    static final int MAX_EXTRA_ROUNDS = 4;
    /** No extra round starts once the kernel pass has run this long (the probe's budget: about a minute in all). */
    static final double EXTRA_ROUNDS_UNTIL_SECONDS = 40;

    /**
     * Whether another round is due: no quiet round yet ({@code quiet} false) or the rates not solved
     * yet ({@code solved} false: {@link #solved}), and extra rounds and time left.
     */
    static boolean anotherRound(boolean quiet, boolean solved, int extraRounds, double elapsedSeconds) {
        return (!quiet || !solved) && extraRounds < MAX_EXTRA_ROUNDS && elapsedSeconds < EXTRA_ROUNDS_UNTIL_SECONDS;
    }

    /** The rates from the best times so far, or null where one of them cannot be had (a probe refuses it). */
    private KernelRates ratesOrNull(Timer bestOf, long l1dBytes, long l2Bytes, double l2ReadBytesPerSecond, int threads, WorkerPool one, WorkerPool all,
                                    long t0, TransferChecks checked) {
        try {
            return rates(bestOf, l1dBytes, l2Bytes, l2ReadBytesPerSecond, threads, one, all, t0, checked);
        } catch (SparseprofException e) {
            return null;
        }
    }

    /**
     * Whether every rate was had and coo's and the N:M decode's per-row costs are above 0: both
     * kernels do work per row (a run search, a decode set-up), so a difference of two best times that
     * solves to 0 or below says the rounds of one of its cases were disturbed (four of the Zen 5 VM's
     * twelve probes of 7 Dec 16:13-17:34 UTC solved {@code cooRow} or {@code nmRow} to 0, the other
     * eight to 2.4-31 cycles), the one-token bodies' per-unit rates are above 0 (see
     * {@link #oneColumn}), and the csr body takes at least the time of its FMAs at every block width
     * ({@link #bodiesAboveTheirFmas}).
     */
    static boolean solved(KernelRates r) {
        return r != null && r.cooRowSeconds() > 0 && r.nmRowSeconds() > 0
                && r.oneColumn() != null && r.oneColumn().spmvVectorSeconds() > 0 && r.oneColumn().gemvFmaSeconds() > 0
                && bodiesAboveTheirFmas(r);
    }

    /**
     * Whether each csr body rate per entry is at least half the dense micro-kernel's time per vector
     * FMA times the vector FMAs an entry runs at that width: an entry at w vectors runs w FMAs, and no
     * loop runs its FMAs faster than the GEMM's micro-kernel, which keeps the FMA ports busy (the
     * half is a margin for the micro-kernel's own overhead). A rate below that is a difference of two
     * disturbed best times: on the Zen 5 VM (8 Dec 2026, 00:17 UTC, 256 bits) one probe read the
     * tight 2-vector loop at 0.003 cycles an entry and the general path's 2- and 1-vector blocks at 0,
     * where its next two read 1.40-1.50 and 1.75-2.25.
     */
    static boolean bodiesAboveTheirFmas(KernelRates r) {
        double fma = r.denseFmaSeconds() / 2;
        return r.oneVectorSeconds() >= fma && r.block2Seconds() >= 2 * fma && r.block4Seconds() >= 4 * fma && r.block8Seconds() >= 8 * fma
                && r.split1Seconds() >= fma && r.split2Seconds() >= 2 * fma;
    }

    /** The block widths of {@link #rowRates}, in vectors. */
    static final int[] WIDTHS = {1, 2, 4, 8};
    /** Timed rounds after the warm-up pass, each call's best kept ({@link BestTimes}). */
    static final int ROUNDS = 4;

    /**
     * Rows of the row-body matrices at {@code vectors} vectors: C ({@code rows x vectors} vectors)
     * in a quarter of L1d, between 16 and 128, a power of two (the C of 128 rows of 8 vectors of
     * 512 bits, 64 KiB, spilled out of a 48 KiB L1 in the smaller matrix's stead and put the
     * spill into the per-row rate).
     */
    static int rowsFor(long l1dBytes, int vectors, int lanes) {
        long fit = l1dBytes / 4 / ((long) vectors * lanes * Float.BYTES);
        return Integer.highestOneBit((int) Math.max(16, Math.min(128, fit)));
    }

    /** Seconds per entry and per row of the CSR row body at one column-block width. */
    record RowRates(double perEntry, double perRow) {}

    /** Seconds per BSR block and per tile and strip. */
    record BlockRates(double perBlock, double perTile) {}

    /**
     * The CSR body at N = {@code vectors} vectors, on rows of random lengths ({@link #LONG_MIN} ..):
     * per entry and per row from {@link #slopes}. On the best times a rate at 0 or below (noise in
     * every round) fails the probe, so the spec never holds a zero rate for a loop that runs.
     */
    private RowRates rowRates(Timer t, int vectors, int rows, WorkerPool pool, boolean last) {
        RowRates r = slopes(t, "csr", variableRows(rows, K_L1, LONG_MIN, LONG_MAX), variableRows(rows, K_L1, SHORT_MIN, SHORT_MAX),
                vectors * lanes, pool);
        if (last && !(r.perEntry() > 0)) throw new SparseprofException("kernel probe: the csr body at " + vectors
                + " vectors measured no time per entry in " + ROUNDS + " rounds (the machine is too noisy to probe)");
        return new RowRates(Math.max(r.perEntry(), 1e-12), r.perRow());
    }

    /**
     * Per entry and per row of a row-split kernel from two matrices of as many rows, one of long
     * rows and one of short: each timed against its first half of rows (the call's fixed costs
     * cancel), so each difference is {@code rows/2 x perRow + entries x perEntry} over the rows
     * apart, two equations in the two rates.
     */
    private static RowRates slopes(Timer t, String format, MatrixView longRows, MatrixView shortRows, int n, WorkerPool pool) {
        int half = longRows.rows() / 2;
        double dLong = t.seconds(format, longRows, n, pool) - t.seconds(format, firstRows(longRows, half), n, pool);
        double dShort = t.seconds(format, shortRows, n, pool) - t.seconds(format, firstRows(shortRows, half), n, pool);
        long eLong = entries(longRows, half, longRows.rows());
        long eShort = entries(shortRows, half, shortRows.rows());
        double entry = (dLong - dShort) / (eLong - eShort);
        return new RowRates(entry, Math.max(0, (dShort - eShort * Math.max(0, entry)) / half));
    }

    /** csr at N = 1 on the second half of a matrix's rows: the seconds they add to the first half's call, their rows, whole vectors and tail entries. */
    record SpmvSample(double seconds, double rows, double vectors, double tails) {}

    /** {@link SpmvSample} of {@code m}: timed whole against its first half (the call's fixed costs cancel). */
    private SpmvSample spmvSample(Timer t, MatrixView m, WorkerPool pool) {
        int half = m.rows() / 2;
        double seconds = t.seconds("csr", m, 1, pool) - t.seconds("csr", firstRows(m, half), 1, pool);
        float[] row = new float[m.cols()];
        double vectors = 0;
        double tails = 0;
        for (int r = half; r < m.rows(); r++) {
            m.copyRow(r, row, 0);
            int len = 0;
            for (float v : row) if (v != 0) len++;
            vectors += len / lanes;
            tails += len % lanes;
        }
        return new SpmvSample(seconds, m.rows() - half, vectors, tails);
    }

    /** BSR 4x4 at N columns: per block the slope between block rows of 12 and 4 blocks; per tile and strip the rest of the short ones. */
    private BlockRates bsrRates(Timer t, int n, WorkerPool pool) {
        int tileRows = 4;
        double longRow = perRow(t, "bsr4x4", BSR_ROWS, BSR_K_LONG, BSR_K_LONG, n, pool) * tileRows;
        double shortRow = perRow(t, "bsr4x4", BSR_ROWS, BSR_K_SHORT, BSR_K_SHORT, n, pool) * tileRows;
        int blocksLong = BSR_K_LONG / 4;
        int blocksShort = BSR_K_SHORT / 4;
        double block = (longRow - shortRow) / (blocksLong - blocksShort);
        return new BlockRates(block, Math.max(0, shortRow - blocksShort * Math.max(0, block)));
    }

    /** Vectors of the wide micro-kernels, bsr's wide strip and dense's wide tile: 4 on 32 registers (512 bits), 2 on 16. */
    private int wideVectors() {
        return lanes >= 16 ? 4 : 2;
    }

    /** The dense wide micro-kernel's seconds per vector FMA in L1, what the rates keep and dense's transfer check composes against. */
    private double denseWideFma(Timer t, WorkerPool one) {
        return perFma(t, wideVectors(), DENSE_TILES * DenseGemm.wideTileRows(), one);
    }

    /**
     * The dense call the warm-up pass adds so that the JIT compiles the micro-kernels as a layer runs
     * them: K of two K blocks, so that the second adds to C (every MiniLM layer's K passes kc; the
     * probe's own calls, K = 48 and K = kc, never do), whole wide tiles of rows. A JIT that never
     * saw that path compiled the 16-register micro6x2 for a K block that starts at zero, and the
     * probe measured it 10-20 % faster than the layers' calls ran (issue 12).
     */
    static MatrixView denseLayerWarmUp(DenseTiling tiling) {
        return rowsMatrix(DENSE_TILES * tiling.rows(), 2 * tiling.kc(), 2 * tiling.kc(), 1);
    }

    /** N of {@link #denseLayerWarmUp}: one wide panel, one two-vector and one one-vector panel, each micro-kernel a layer's N reaches. */
    static int denseLayerWarmUpColumns(DenseTiling tiling) {
        return tiling.panelColumns() + 3 * tiling.lanes();
    }

    /** Dense seconds per vector FMA at a panel of {@code vectors} vectors: per row of {@code rows} over half as many, over K x vectors. */
    private double perFma(Timer t, int vectors, int rows, WorkerPool pool) {
        return perRow(t, "dense", rows, DENSE_K, DENSE_K, vectors * lanes, pool) / ((double) DENSE_K * vectors);
    }

    /**
     * Row tiles of the dense transfer check's larger matrix (the smaller has half as many): 8 tiles
     * apart, each reading the whole packed block once more.
     */
    static final int DENSE_L2_TILES = 16;

    /**
     * Dense's transfer check, the csr check's twin for the dense kernel's own L2 traffic: at K = its
     * K block and N = {@link #denseL2Columns} every row tile streams the packed {@code kc x N} block,
     * larger than L1d, from L2 (16 B per vector FMA at 4-row tiles of 512-bit vectors), in order,
     * where csr's check gathers random rows. Per vector FMA from two row counts (B's packing, once
     * per call, cancels), against the in-L1 rate {@code corePerFma}; null where no block of one C
     * block passes L1d (dense then has no L2 term to compose).
     */
    private KernelRates.DenseL2 denseL2(Timer t, double corePerFma, long l1dBytes, double l2ReadBytesPerSecond, WorkerPool pool) {
        DenseTiling tiling = DenseGemm.tiling();
        int n = denseL2Columns(tiling, l1dBytes);
        if (n == 0) return null;
        int k = tiling.kc();
        int rows = DENSE_L2_TILES * tiling.rows();
        double perRow = perRowOf(t, "dense", rowsMatrix(rows, k, k, 1), rowsMatrix(rows / 2, k, k, 1), rows / 2, n, pool);
        return denseL2(k, n, perRow / ((double) k * n / tiling.lanes()), corePerFma, tiling, l2ReadBytesPerSecond);
    }

    /**
     * N of dense's transfer check: the fewest whole wide panels whose packed block of K = kc is
     * larger than L1d (one 64 KiB panel on a 48 KiB core at 512 bits: 1024 x 256 x 64 per 4 tiles),
     * 0 where that passes one C block ({@code nc}).
     */
    static int denseL2Columns(DenseTiling tiling, long l1dBytes) {
        long panelBytes = (long) tiling.kc() * tiling.panelColumns() * Float.BYTES;
        long n = (l1dBytes / panelBytes + 1) * tiling.panelColumns();
        return n <= tiling.nc() ? (int) n : 0;
    }

    /**
     * The dense composition solved as csr's is ({@link #overlap}): the block's bytes per vector FMA
     * (a tile of {@code rows} rows reads one vector of B per {@code rows} FMAs) over the 1-thread L2
     * read bandwidth is the transfer, {@code measured} and {@code core} seconds per vector FMA.
     */
    static KernelRates.DenseL2 denseL2(int k, int n, double measured, double core, DenseTiling tiling, double l2ReadBytesPerSecond) {
        double transfer = (double) tiling.lanes() * Float.BYTES / tiling.rows() / l2ReadBytesPerSecond;
        return new KernelRates.DenseL2(k, n, solve(core, transfer, measured));
    }

    /** Seconds per row of {@code rows} rows of {@code len} entries in K columns over half as many rows. */
    private double perRow(Timer t, String format, int rows, int k, int len, int n, WorkerPool pool) {
        return perRowOf(t, format, rowsMatrix(rows, k, len, 1), rowsMatrix(rows / 2, k, len, 1), rows / 2, n, pool);
    }

    /** Seconds per row of the larger matrix over the smaller one (the call's fixed costs cancel), {@code rowsDiff} rows apart. */
    private static double perRowOf(Timer t, String format, MatrixView big, MatrixView small, int rowsDiff, int n, WorkerPool pool) {
        return (t.seconds(format, big, n, pool) - t.seconds(format, small, n, pool)) / rowsDiff;
    }

    /** At least 200 calls and 0.1 s, then until successive rounds agree (the JIT has compiled the kernel). */
    private static final TimingConfig WARM_UP = new TimingConfig(200, 0.1, 1);

    /** A plan of {@code format} on {@code a} at N = {@code n} for {@code pool}, built and warmed up ({@link #WARM_UP}). */
    private static CpuRunner.Prepared<?> warmedPlan(String format, MatrixView a, int n, WorkerPool pool) {
        CpuRunner.Prepared<?> p = plan(format, a, n, pool);
        TimingHarness.warmUp(p.plan(), p.b(), p.c(), pool, WARM_UP);
        return p;
    }

    /** A plan of {@code format} on {@code a} at N = {@code n} for {@code pool}: the prepared matrix, its schedule, B and C. */
    private static CpuRunner.Prepared<?> plan(String format, MatrixView a, int n, WorkerPool pool) {
        SpmmKernel<?> kernel = Kernels.byName(format);
        return CpuRunner.prepare(kernel, a, new CpuRunner.Request("probe", n, pool.threads(), new NnzBalancedPartition(), new TimingConfig(0, 0, 1)));
    }

    /**
     * The {@code quantile} of single calls' seconds on a warmed-up plan (the lower quartile for the
     * rates). Calls take microseconds, so most of them run without the scheduler handing the core to
     * another tenant; a trial of many calls on a loaded machine (load 13 on 2 vCPUs here) always
     * includes such time slices and measured the rates 3-10x too slow.
     */
    private double timeCalls(CpuRunner.Prepared<?> p, WorkerPool pool, double quantile) {
        long[] threadNanos = new long[pool.threads()];
        long[] calls = new long[MAX_CALLS];
        int count = 0;
        long end = System.nanoTime() + (long) (minTrialSeconds * trials * 1e9);
        while (count < MAX_CALLS && (count < MIN_CALLS || System.nanoTime() < end)) {
            long s = System.nanoTime();
            p.plan().run(p.b(), p.c(), pool, threadNanos);
            calls[count++] = System.nanoTime() - s;
        }
        Arrays.sort(calls, 0, count);
        return calls[(int) (count * quantile)] * 1e-9;
    }

    private static final int MIN_CALLS = 200;
    private static final int MAX_CALLS = 20_000;

    /** The share of the smaller of in-core and transfer time that the measured time hid, in [0, 1]. */
    static double overlap(double core, double transfer, double measured) {
        return Math.max(0, Math.min(1, (core + transfer - measured) / Math.min(core, transfer)));
    }

    /** {@code rows} rows of {@code len} non-zeros in consecutive columns (spread over K when len < K). */
    static MatrixView rowsMatrix(int rows, int k, int len, float value) {
        float[] a = new float[rows * k];
        int step = Math.max(1, k / len);
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < len; j++) a[r * k + (j * step + r) % k] = value + 0.001f * j;
        }
        return MatrixView.of(rows, k, a);
    }

    /**
     * {@code rows} rows of {@code minLen..maxLen} non-zeros (each row's length drawn at random,
     * seeded by the row, so a matrix's first rows are those of any taller one) in columns spread
     * over K.
     */
    public static MatrixView variableRows(int rows, int k, int minLen, int maxLen) {
        if (minLen < 1 || maxLen > k || minLen > maxLen) throw new IllegalArgumentException("row lengths " + minLen + ".." + maxLen + " in " + k + " columns");
        float[] a = new float[rows * k];
        for (int r = 0; r < rows; r++) {
            int len = minLen + new Random(31L * r + 17L * minLen + maxLen).nextInt(maxLen - minLen + 1);
            int step = Math.max(1, k / len);
            for (int j = 0; j < len; j++) a[r * k + (j * step + r) % k] = 1 + 0.001f * j;
        }
        return MatrixView.of(rows, k, a);
    }

    /** The first {@code rows} rows of {@code m}. */
    public static MatrixView firstRows(MatrixView m, int rows) {
        return MatrixView.of(rows, m.cols(), Arrays.copyOf(m.toDense(), rows * m.cols()));
    }

    /** The non-zeros of rows {@code [from, to)}. */
    public static long entries(MatrixView m, int from, int to) {
        float[] row = new float[m.cols()];
        long n = 0;
        for (int r = from; r < to; r++) {
            m.copyRow(r, row, 0);
            for (float v : row) if (v != 0) n++;
        }
        return n;
    }

    /** {@code rows} rows of {@code minLen..maxLen} non-zeros (each row's drawn at random) at random distinct columns of K. */
    static MatrixView randomRows(int rows, int k, int minLen, int maxLen) {
        float[] a = new float[rows * k];
        Random rnd = new Random(7);
        for (int r = 0; r < rows; r++) {
            int len = minLen + rnd.nextInt(maxLen - minLen + 1);
            int placed = 0;
            while (placed < len) {
                int c = rnd.nextInt(k);
                if (a[r * k + c] == 0) {
                    a[r * k + c] = 0.5f + placed;
                    placed++;
                }
            }
        }
        return MatrixView.of(rows, k, a);
    }

    /** 2 of every 4 columns kept (the first two of each group). */
    static MatrixView twoFour(int rows, int k) {
        float[] a = new float[rows * k];
        for (int r = 0; r < rows; r++) {
            for (int g = 0; g < k; g += 4) {
                a[r * k + g] = 1f;
                a[r * k + g + 1] = 0.5f;
            }
        }
        return MatrixView.of(rows, k, a);
    }
}
