package dev.sparseprof.measure.probe;

import dev.sparseprof.kernel.KernelVectors;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.measure.TimingHarness;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;
import java.util.Random;

/**
 * The in-core rates of the project's own kernels on this machine: each kernel of the {@code kernel}
 * package run on small synthetic matrices whose A and B fit in L1 together, so the time is the
 * loop nest's in-core time (ECM's T_core) and nothing else. Each rate comes from the difference of
 * two row counts (M and M/2: the call's fixed costs cancel) and, where a rate is per row and per
 * entry, from two row lengths. The CSR body is measured at each column-block width the kernels
 * dispatch (N = 1, 2, 4 and 8 vectors: the tight one- and two-vector loops, one 4- and one 8-vector
 * block), each width's own rate per entry: a block of few vectors waits on the FMA latency (one
 * FMA per accumulator per entry), a wide one on the load ports, so no line through the widths
 * holds (the least squares that was fitted through them put one of its two slopes at 0 from run
 * to run). Then the same CSR kernel with B sized into L2 shows how much of
 * the L2 transfer hides behind the in-core time (the overlap). A tiny matrix on 1 thread and on all gives the call's fixed
 * costs (launch, fork/join). Every rate is in seconds per unit.
 * About 10 s on a 2-vCPU VM.
 */
public final class KernelRateProbe {
    /** Columns of the in-L1 matrices: B is K x N fp32 (8 KiB at N = 8 vectors of 512 bits). */
    static final int K_L1 = 16;
    static final int ROWS = 128;
    static final int LONG_ROW = 16;
    static final int SHORT_ROW = 2;
    static final int DENSE_K = 64;
    static final int COO_K = 128;
    static final int COO_ROWS = 64;
    static final int COO_LONG = 64;
    static final int COO_SHORT = 8;
    private final int trials;
    private final double minTrialSeconds;
    private final int lanes = KernelVectors.FLOATS.length();

    public KernelRateProbe(int trials, double minTrialSeconds) {
        this.trials = trials;
        this.minTrialSeconds = minTrialSeconds;
    }

    /**
     * @param l2Bytes             the L2 size (B of the transfer check is sized to a quarter of it)
     * @param l2ReadBytesPerSecond the probe's 1-thread L2 read bandwidth
     * @param threads             the all-cores thread count (fork/join)
     */
    public KernelRates run(long l2Bytes, double l2ReadBytesPerSecond, int threads) {
        long t0 = System.nanoTime();
        // A first pass only warms every kernel and column-block variant up: a kernel's first
        // warm-up can settle on the JIT's first tier while the last is still compiling (on a loaded
        // machine the compiler threads wait for a core), and measure it 10x too slow.
        warming = true;
        measureAll(l2Bytes, l2ReadBytesPerSecond, threads, t0);
        warming = false;
        KernelRates[] rounds = new KernelRates[ROUNDS];
        for (int i = 0; i < ROUNDS; i++) rounds[i] = measureAll(l2Bytes, l2ReadBytesPerSecond, threads, t0);
        return medianOf(rounds, (System.nanoTime() - t0) * 1e-9);
    }

    /**
     * Every rate's median over the rounds: on this VM one rate in a round came out 10-40x slow while
     * the JIT recompiled a shared body (the row body's block dispatch, the 2:4 decode), in a
     * different rate each probe; one such round does not move the median.
     */
    static KernelRates medianOf(KernelRates[] r, double elapsedSeconds) {
        double[][] v = new double[18][r.length];
        for (int i = 0; i < r.length; i++) {
            KernelRates k = r[i];
            double[] f = {k.denseFmaSeconds(), k.denseNarrowFmaSeconds(), k.block8Seconds(), k.block4Seconds(), k.block2Seconds(), k.oneVectorSeconds(),
                k.rowBlockSeconds(), k.wholeRowSeconds(), k.cooEntrySeconds(), k.cooRowSeconds(), k.bsrWideSeconds(), k.bsrNarrowSeconds(), k.nmSlotSeconds(),
                k.launchSeconds(), k.forkJoinSeconds(), k.l2MeasuredSeconds(), k.l2CoreSeconds(), k.l2TransferSeconds()};
            for (int j = 0; j < f.length; j++) v[j][i] = f[j];
        }
        double[] m = new double[v.length];
        for (int j = 0; j < v.length; j++) m[j] = median(v[j]);
        double overlap = overlap(m[16], m[17], m[15]);
        return new KernelRates(r[0].vectorBits(), m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13], m[14],
                overlap, m[15], m[16], m[17], elapsedSeconds);
    }

    /** The share of the smaller of in-core and transfer time that the measured time hid, in [0, 1]. */
    static double overlap(double core, double transfer, double measured) {
        return Math.max(0, Math.min(1, (core + transfer - measured) / Math.min(core, transfer)));
    }

    private boolean warming;

    private KernelRates measureAll(long l2Bytes, double l2ReadBytesPerSecond, int threads, long t0) {
        try (WorkerPool one = new WorkerPool(1)) {
            // the CSR row body at each block width the kernels dispatch (LoopNests): N = 1 and 2 vectors
            // take the tight all-rows loops, 4 and 8 vectors one column block of the general path.
            // Each width's rate per entry from two row lengths, its rate per row from the short rows.
            RowRates[] body = rowBody(one);
            RowRates one1 = body[0];
            RowRates two = body[1];
            RowRates four = body[2];
            RowRates eight = body[3];
            double wholeRow = (one1.perRow() + two.perRow()) / 2;
            double rowBlock = (four.perRow() + eight.perRow()) / 2;
            // COO: its run search over the CSR body, per triple and per row, on rows as long as a pruned
            // layer's (64 and 8 of 128 columns; N = one vector keeps B in L1)
            int n2 = 2 * lanes;
            double cooLong = perRowSeconds("coo", rowsMatrix(COO_ROWS, COO_K, COO_LONG, 1), rowsMatrix(COO_ROWS / 2, COO_K, COO_LONG, 1), COO_ROWS / 2, lanes, one)
                    - perRowSeconds("csr", rowsMatrix(COO_ROWS, COO_K, COO_LONG, 1), rowsMatrix(COO_ROWS / 2, COO_K, COO_LONG, 1), COO_ROWS / 2, lanes, one);
            double cooShort = perRowSeconds("coo", rowsMatrix(COO_ROWS, COO_K, COO_SHORT, 1), rowsMatrix(COO_ROWS / 2, COO_K, COO_SHORT, 1), COO_ROWS / 2, lanes, one)
                    - perRowSeconds("csr", rowsMatrix(COO_ROWS, COO_K, COO_SHORT, 1), rowsMatrix(COO_ROWS / 2, COO_K, COO_SHORT, 1), COO_ROWS / 2, lanes, one);
            double cooEntry = Math.max(0, (cooLong - cooShort) / (COO_LONG - COO_SHORT));
            double cooRow = Math.max(0, cooShort - COO_SHORT * cooEntry);
            // 2:4: 2 kept of every 4 columns of 2 x K_L1 (16 slots per row), less the CSR body over as many entries
            double nmRow = perRowSeconds("2:4", twoFour(ROWS, 2 * K_L1), twoFour(ROWS / 2, 2 * K_L1), ROWS / 2, n2, one);
            double csrNm = perRowSeconds("csr", twoFour(ROWS, 2 * K_L1), twoFour(ROWS / 2, 2 * K_L1), ROWS / 2, n2, one);
            double nmSlot = Math.max(0, (nmRow - csrNm) / K_L1);
            // BSR 4x4, every block dense: per block at one wide strip (4 vectors) and one narrow strip
            double blocksPerRow = K_L1 / 4.0 / 4; // a block row (4 C rows) holds K / 4 blocks
            // one wide strip: 4 vectors on 32 registers (512 bits), 2 on 16 (kernel.BlockRowTiles.WIDE_VECTORS)
            int wideVectors = lanes >= 16 ? 4 : 2;
            double bsrWide = perRowSeconds("bsr4x4", rowsMatrix(ROWS, K_L1, K_L1, 1), rowsMatrix(ROWS / 2, K_L1, K_L1, 1), ROWS / 2,
                    wideVectors * lanes, one)
                    / blocksPerRow;
            double bsrNarrow = perRowSeconds("bsr4x4", rowsMatrix(ROWS, K_L1, K_L1, 1), rowsMatrix(ROWS / 2, K_L1, K_L1, 1), ROWS / 2, lanes, one)
                    / blocksPerRow;
            // dense: per vector FMA, wide (4 vectors) and narrow (1 vector) micro-kernels
            double denseWide = perRowSeconds("dense", rowsMatrix(ROWS, DENSE_K, DENSE_K, 1), rowsMatrix(ROWS / 2, DENSE_K, DENSE_K, 1), ROWS / 2,
                    4 * lanes, one) / (DENSE_K * 4.0);
            double denseNarrow = perRowSeconds("dense", rowsMatrix(ROWS, DENSE_K, DENSE_K, 1), rowsMatrix(ROWS / 2, DENSE_K, DENSE_K, 1), ROWS / 2,
                    lanes, one) / DENSE_K;
            // the transfer check: 8 vectors, B of a quarter of L2, random columns (every B row from L2)
            int n8 = 8 * lanes;
            int kL2 = (int) Math.max(64, l2Bytes / 4 / ((long) n8 * Float.BYTES));
            double measured = perRowSeconds("csr", randomRows(ROWS, kL2, LONG_ROW), randomRows(ROWS / 2, kL2, LONG_ROW), ROWS / 2, n8, one)
                    / LONG_ROW;
            double core = rowBlock / LONG_ROW + eight.perEntry();
            double transfer = (double) n8 * Float.BYTES / l2ReadBytesPerSecond;
            double overlap = overlap(core, transfer, measured);
            // fixed costs of a call: one row of one entry, N = one vector
            MatrixView tiny = rowsMatrix(1, K_L1, 1, 1);
            double launch = callSeconds("csr", tiny, lanes, one);
            double forkJoin = 0;
            if (threads > 1) {
                try (WorkerPool all = new WorkerPool(threads)) {
                    forkJoin = Math.max(0, (callSeconds("csr", rowsMatrix(threads, K_L1, 1, 1), lanes, all) - launch) / (threads - 1));
                }
            }
            return new KernelRates(lanes * 32, denseWide, denseNarrow, eight.perEntry(), four.perEntry(), two.perEntry(), one1.perEntry(), rowBlock,
                    wholeRow, cooEntry, cooRow, bsrWide, bsrNarrow, nmSlot,
                    launch, forkJoin, overlap, measured, core, transfer, (System.nanoTime() - t0) * 1e-9);
        }
    }

    /** The block widths of {@link #rowBody}, in vectors. */
    static final int[] WIDTHS = {1, 2, 4, 8};
    /** Rounds of the whole measurement after the warm-up pass, each rate's median kept ({@link #medianOf}). */
    static final int ROUNDS = 3;

    /** The CSR body at each of {@link #WIDTHS}. */
    private RowRates[] rowBody(WorkerPool pool) {
        RowRates[] out = new RowRates[WIDTHS.length];
        for (int i = 0; i < WIDTHS.length; i++) out[i] = rowRates(WIDTHS[i], pool);
        return out;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** Seconds per entry and per row of the CSR row body at one column-block width. */
    record RowRates(double perEntry, double perRow) {}

    /**
     * The CSR body at N = {@code vectors} vectors: per entry from rows of {@link #LONG_ROW} and
     * {@link #SHORT_ROW} entries, per row what the short rows take beyond their entries. A rate
     * the noise put at 0 or below (a time slice in the short rows' calls) is measured again, up to
     * {@link #ATTEMPTS} times, so the spec never holds a zero rate for a loop that runs.
     */
    private RowRates rowRates(int vectors, WorkerPool pool) {
        int n = vectors * lanes;
        RowRates r = new RowRates(0, 0);
        for (int attempt = 0; attempt < (warming ? 1 : ATTEMPTS) && !(r.perEntry() > 0); attempt++) {
            double longRows = perRowSeconds("csr", rowsMatrix(ROWS, K_L1, LONG_ROW, 1), rowsMatrix(ROWS / 2, K_L1, LONG_ROW, 1), ROWS / 2, n, pool);
            double shortRows = perRowSeconds("csr", rowsMatrix(ROWS, K_L1, SHORT_ROW, 1), rowsMatrix(ROWS / 2, K_L1, SHORT_ROW, 1), ROWS / 2, n, pool);
            double entry = (longRows - shortRows) / (LONG_ROW - SHORT_ROW);
            r = new RowRates(entry, Math.max(0, shortRows - SHORT_ROW * Math.max(0, entry)));
        }
        if (warming) return new RowRates(1e-9, 1e-9); // the warm-up pass's results are dropped
        if (!(r.perEntry() > 0)) throw new SparseprofException("kernel probe: the csr body at " + vectors
                + " vectors measured no time per entry in " + ATTEMPTS + " attempts (the machine is too noisy to probe)");
        return r;
    }

    static final int ATTEMPTS = 3;

    /** Seconds per row of the larger matrix over the smaller one (the call's fixed costs cancel), {@code rowsDiff} rows apart. */
    private double perRowSeconds(String format, MatrixView big, MatrixView small, int rowsDiff, int n, WorkerPool pool) {
        double tBig = callSeconds(format, big, n, pool);
        double tSmall = callSeconds(format, small, n, pool);
        return Math.max(0, tBig - tSmall) / rowsDiff;
    }

    /** At least 200 calls and 0.1 s, then until successive rounds agree (the JIT has compiled the kernel). */
    private static final TimingConfig WARM_UP = new TimingConfig(200, 0.1, 1);
    /**
     * The lower quartile of single calls' seconds, after the warm-up. Calls take microseconds, so
     * most of them run without the scheduler handing the core to another tenant; a trial of many
     * calls on a loaded machine (load 13 on 2 vCPUs here) always includes such time slices and
     * measured the rates 3-10x too slow.
     */
    private double callSeconds(String format, MatrixView a, int n, WorkerPool pool) {
        SpmmKernel<?> kernel = Kernels.byName(format);
        CpuRunner.Prepared<?> p = CpuRunner.prepare(kernel, a, new CpuRunner.Request("probe", n, pool.threads(), new NnzBalancedPartition(),
                new TimingConfig(0, 0, 1)));
        long[] threadNanos = new long[pool.threads()];
        TimingHarness.warmUp(p.plan(), p.b(), p.c(), pool, WARM_UP);
        if (warming) return 1e-9 * (1 + a.rows()); // any positive, growing with the rows: the pass's results are dropped
        long[] calls = new long[MAX_CALLS];
        int count = 0;
        long end = System.nanoTime() + (long) (minTrialSeconds * trials * 1e9);
        while (count < MAX_CALLS && (count < MIN_CALLS || System.nanoTime() < end)) {
            long s = System.nanoTime();
            p.plan().run(p.b(), p.c(), pool, threadNanos);
            calls[count++] = System.nanoTime() - s;
        }
        Arrays.sort(calls, 0, count);
        return calls[count / 4] * 1e-9;
    }

    private static final int MIN_CALLS = 200;
    private static final int MAX_CALLS = 20_000;

    /** {@code rows} rows of {@code len} non-zeros in consecutive columns (spread over K when len < K). */
    static MatrixView rowsMatrix(int rows, int k, int len, float value) {
        float[] a = new float[rows * k];
        int step = Math.max(1, k / len);
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < len; j++) a[r * k + (j * step + r) % k] = value + 0.001f * j;
        }
        return MatrixView.of(rows, k, a);
    }

    /** {@code rows} rows of {@code len} non-zeros at random distinct columns of K. */
    static MatrixView randomRows(int rows, int k, int len) {
        float[] a = new float[rows * k];
        Random rnd = new Random(7);
        for (int r = 0; r < rows; r++) {
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
