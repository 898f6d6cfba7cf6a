package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.GatherRates;
import dev.sparseprof.hw.SpecException;
import dev.sparseprof.kernel.DenseGemm;
import dev.sparseprof.kernel.DenseTiling;
import dev.sparseprof.util.MatrixView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe's arithmetic and its fallbacks, without timing anything. */
class KernelRateProbeTest {
    /**
     * A one-token body whose per-unit slope solved to 0 or below is left out (zeros: not probed)
     * instead of failing the probe, and asks for extra rounds first: its slopes are differences of
     * tenths of a microsecond.
     */
    @Test
    void aOneTokenRateThatSolvesToZeroIsLeftOutAndAsksForMoreRounds() {
        KernelRates.OneColumn both = KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 0, 0, 0, 0, 0);
        assertEquals(new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9), both);
        assertEquals(new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0, 0), KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, -1e-11, 2e-9, 0, 0, 0, 0, 0));
        assertEquals(new KernelRates.OneColumn(0, 0, 0, 0.2e-9, 2e-9), KernelRateProbe.oneColumn(0, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 0, 0, 0, 0, 0));
        assertTrue(KernelRateProbe.solved(rates(both)));
        assertFalse(KernelRateProbe.solved(rates(KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0, 2e-9, 0, 0, 0, 0, 0))));
        assertFalse(KernelRateProbe.solved(rates(null)));
    }

    /** The matrix-vector product's L2 rate goes with its in-L1 rates: left out where they are. */
    @Test
    void theGemvL2RateGoesWithTheGemvRates() {
        assertEquals(90e9, KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 0, 0, 0, 90e9, 0).gemvL2BytesPerSecond());
        assertEquals(0, KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, -1e-11, 2e-9, 0, 0, 0, 90e9, 0).gemvL2BytesPerSecond());
    }

    /**
     * SELL's rates go together: a per-slot or per-element slope at 0 or below leaves all three out
     * (SELL is then not predicted), and the probe stands; they never ask for extra rounds.
     */
    @Test
    void sellRatesGoTogetherAndDoNotHoldTheProbe() {
        KernelRates.OneColumn all = KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 0.4e-9, 5e-9, 0.3e-9, 0, 0);
        assertEquals(new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 0.4e-9, 5e-9, 0.3e-9, 0, 0), all);
        assertEquals(new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9), KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, -1e-12, 5e-9, 0.3e-9, 0, 0));
        assertEquals(new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9), KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 0.4e-9, 5e-9, 0, 0, 0));
        assertTrue(KernelRateProbe.solved(rates(KernelRateProbe.oneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, -1e-12, 5e-9, 0.3e-9, 0, 0))));
    }

    /**
     * A csr body rate below the time of its FMAs (half the dense micro-kernel's per vector FMA, times
     * the FMAs an entry runs at that width) is a disturbed difference, and asks for extra rounds as a
     * per-row cost at 0 does: one Zen 5 probe read the 2-vector loop at 0.003 cycles an entry.
     */
    @Test
    void aCsrBodyFasterThanItsFmasAsksForMoreRounds() {
        KernelRates.OneColumn one = new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9);
        assertTrue(KernelRateProbe.bodiesAboveTheirFmas(rates(one)));
        KernelRates fastPair = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 0.9e-12, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, one);
        assertFalse(KernelRateProbe.bodiesAboveTheirFmas(fastPair));
        assertFalse(KernelRateProbe.solved(fastPair));
        KernelRates noSplit = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                0, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, one);
        assertFalse(KernelRateProbe.solved(noSplit), "the general path's 2-vector block at 0");
        KernelRates atTheFloor = new KernelRates(512, 1e-10, 1e-10, 4e-10, 2e-10, 1e-10, 5e-11, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-10, 5e-11, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, one);
        assertTrue(KernelRateProbe.bodiesAboveTheirFmas(atTheFloor), "w FMAs at half the micro-kernel's time each");
    }

    private static KernelRates rates(KernelRates.OneColumn oneColumn) {
        return new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, oneColumn);
    }

    @Test
    void oneSlowRoundDoesNotMoveARate() {
        // a JIT transient or a time slice measured one round 30x slow: each call keeps its best round
        KernelRateProbe.BestTimes best = new KernelRateProbe.BestTimes();
        var a = KernelRateProbe.rowsMatrix(8, 16, 2, 1);
        var b = KernelRateProbe.rowsMatrix(8, 16, 16, 1);
        for (double s : new double[] {2.5e-6, 72.3e-6, 2.4e-6}) best.keep("csr", a, 16, 1, s);
        best.keep("csr", b, 16, 1, 9e-6);
        assertEquals(2.4e-6, best.of("csr", a, 16, 1));
        assertEquals(9e-6, best.of("csr", b, 16, 1)); // another matrix of the same shape is another call
        assertThrows(IllegalStateException.class, () -> best.of("csr", a, 32, 1));
        // the row-body matrices keep C in a quarter of L1d: 16 rows of 8 vectors of 512 bits in 32 KiB, 128 rows of one
        assertEquals(16, KernelRateProbe.rowsFor(32 << 10, 8, 16));
        assertEquals(16, KernelRateProbe.rowsFor(48 << 10, 8, 16));
        assertEquals(128, KernelRateProbe.rowsFor(48 << 10, 1, 16));
        assertEquals(32, KernelRateProbe.rowsFor(32 << 10, 8, 8));
        // the widths the probe measures are the widths the kernels dispatch (ColumnBlocks: 8, 4, 2, 1 vectors)
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 2, 4, 8}, KernelRateProbe.WIDTHS);
    }

    /**
     * Rounds go on while none was quiet or a per-row cost solves to 0, up to four more and the pass's
     * time budget; one quiet round with every rate solved ends them.
     */
    @Test
    void roundsGoOnUntilOneRanOnAQuietMachineAndEveryRateSolves() {
        assertTrue(KernelRateProbe.anotherRound(false, true, 0, 20), "no quiet round among the first");
        assertFalse(KernelRateProbe.anotherRound(true, true, 0, 20), "one quiet round is enough: each call keeps its best");
        assertTrue(KernelRateProbe.anotherRound(true, false, 0, 20), "a per-row cost at 0: a disturbed case");
        assertTrue(KernelRateProbe.anotherRound(false, true, KernelRateProbe.MAX_EXTRA_ROUNDS - 1, 20));
        assertFalse(KernelRateProbe.anotherRound(false, false, KernelRateProbe.MAX_EXTRA_ROUNDS, 20), "at most four more");
        assertFalse(KernelRateProbe.anotherRound(false, false, 0, KernelRateProbe.EXTRA_ROUNDS_UNTIL_SECONDS), "within the probe's time");
    }

    @Test
    void theDenseMatricesHoldWholeRegisterTiles() {
        // rows past the last whole tile run one-row kernels: both matrices of a difference hold whole tiles
        for (int tileRows : new int[] {4, 6, DenseGemm.wideTileRows()}) {
            int big = KernelRateProbe.DENSE_TILES * tileRows;
            assertEquals(0, big % tileRows);
            assertEquals(0, (big / 2) % tileRows, tileRows + "-row tiles");
        }
        int narrow = DenseTiling.NARROW_ROWS;
        assertEquals(0, KernelRateProbe.DENSE_NARROW_ROWS % narrow);
        assertEquals(0, (KernelRateProbe.DENSE_NARROW_ROWS / 2) % narrow);
    }

    @Test
    void syntheticMatricesHoldWhatTheRatesAssume() {
        assertEquals(128 * 16, nonZeros(KernelRateProbe.rowsMatrix(128, 16, 16, 1)));
        assertEquals(64 * 2, nonZeros(KernelRateProbe.rowsMatrix(64, 16, 2, 1)));
        assertEquals(128 * 16, nonZeros(KernelRateProbe.twoFour(128, 32)));
        assertEquals(10 * 16, nonZeros(KernelRateProbe.randomRows(10, 1024, 16, 16)));
        // rows of random lengths: within their bounds, and a matrix's first rows are a shorter one's rows
        var tall = KernelRateProbe.variableRows(64, 32, 14, 30);
        long e = KernelRateProbe.entries(tall, 0, 64);
        org.junit.jupiter.api.Assertions.assertTrue(e >= 64 * 14 && e <= 64 * 30 && e != 64 * 14 && e != 64 * 30, "entries " + e);
        org.junit.jupiter.api.Assertions.assertArrayEquals(KernelRateProbe.variableRows(32, 32, 14, 30).toDense(),
                KernelRateProbe.firstRows(tall, 32).toDense());
        assertEquals(KernelRateProbe.entries(tall, 0, 32) + KernelRateProbe.entries(tall, 32, 64), e);
    }

    private static long nonZeros(MatrixView m) {
        float[] row = new float[m.cols()];
        long n = 0;
        for (int r = 0; r < m.rows(); r++) {
            m.copyRow(r, row, 0);
            for (float v : row) if (v != 0) n++;
        }
        return n;
    }

    @Test
    void theGatherBandwidthIsTheOneAtWhichTheEcmCompositionGivesTheMeasuredTime() {
        // the composition core + T - overlap x min(core, T), inverted on both sides of T = core
        for (double overlap : new double[] {0, 0.3, 0.84, 1}) {
            for (double transfer : new double[] {0.5, 1, 2, 5}) {
                double core = 1;
                double measured = core + transfer - overlap * Math.min(core, transfer);
                if (overlap == 1 && transfer < core) continue; // hidden entirely: no time tells it
                assertEquals(transfer, KernelRateProbe.transferSeconds(core, measured, overlap), 1e-12, overlap + " " + transfer);
            }
        }
        // a measured time under the in-core one leaves the transfer no time: the smallest positive (the caller caps the rate)
        assertTrue(KernelRateProbe.transferSeconds(2, 1, 0.5) > 0);
        assertTrue(KernelRateProbe.transferSeconds(2, 1, 0.5) < 1e-12);
    }

    /**
     * A gather call the check's overlap composes to its time keeps that overlap (its rate was
     * solved from it); one faster than the composition at the streaming rate allows gets the
     * overlap solved from the call at that rate, never less than the check's.
     */
    @Test
    void aGatherCallFasterThanItsCompositionAtTheStreamingRateSolvesItsOwnOverlap() {
        double core = 1, transfer = 2, check = 0.4;
        double composed = core + transfer - check * core;
        assertEquals(check, KernelRateProbe.gatherOverlap(core, transfer, composed, check), 1e-12);
        assertEquals(check, KernelRateProbe.gatherOverlap(core, transfer, composed + 0.5, check), 1e-12);
        // 2.25: 0.75 of the in-core time hidden
        assertEquals(0.75, KernelRateProbe.gatherOverlap(core, transfer, 2.25, check), 1e-12);
        // faster than either part alone: all of it hidden, clamped
        assertEquals(1, KernelRateProbe.gatherOverlap(core, transfer, 1.5, check), 1e-12);
    }

    @Test
    void gatherRatesPerCoreFollowTheThreadsRunning() {
        var g = new GatherRates(100e9, 150e9, 2);
        assertEquals(100e9, g.perCoreBytesPerSecond(1));
        assertEquals(75e9, g.perCoreBytesPerSecond(2)); // two threads drew 150 GB/s in all
        assertEquals(75e9, g.perCoreBytesPerSecond(4));
        assertEquals(100e9, new GatherRates(100e9, 300e9, 2).perCoreBytesPerSecond(2)); // never above one core's alone
        assertFalse(GatherRates.NONE.present());
        assertEquals(0, GatherRates.NONE.perCoreBytesPerSecond(2));
        assertThrows(SpecException.class, () -> new GatherRates(1e9, 2e9, 0));
    }

    @Test
    void densesWarmUpCallAddsToCInEveryMicroKernelAsALayersCallDoes() {
        for (DenseTiling tiling : List.of(DenseTiling.choose(512, 48L << 10, 2L << 20), DenseTiling.choose(256, 32L << 10, 512L << 10))) {
            var a = KernelRateProbe.denseLayerWarmUp(tiling);
            // past one K block, so that the second block's tiles start from C (the probe's own calls never pass kc)
            assertTrue(a.cols() > tiling.kc() && a.cols() > KernelRateProbe.DENSE_K, "K " + a.cols() + " at " + tiling);
            assertEquals(0, a.rows() % tiling.rows(), "whole wide tiles at " + tiling);
            assertEquals((long) a.rows() * a.cols(), KernelRateProbe.entries(a, 0, a.rows()), "every entry stored");
            // one wide panel, then a two-vector and a one-vector panel
            int n = KernelRateProbe.denseLayerWarmUpColumns(tiling);
            assertEquals(tiling.panelColumns() + 2 * tiling.lanes() + tiling.lanes(), n);
            assertTrue(n <= tiling.nc(), "one C block at " + tiling);
        }
    }

    @Test
    void densesCheckStreamsABlockPastL1AndSolvesItsOverlapAsCsrsIs() {
        // 48 KiB L1d at 512 bits: 4 x 4 vectors, kc 256; one 64-column panel's block is 64 KiB, past L1d
        DenseTiling avx512 = DenseTiling.choose(512, 48L << 10, 2L << 20);
        assertEquals(64, KernelRateProbe.denseL2Columns(avx512, 48L << 10));
        // at 256 bits (6 x 2 vectors of 8, kc 128) one 16-column panel's block is 8 KiB: 4 panels pass 32 KiB
        DenseTiling avx2 = DenseTiling.choose(256, 32L << 10, 512L << 10);
        int n2 = KernelRateProbe.denseL2Columns(avx2, 32L << 10);
        assertTrue((long) avx2.kc() * n2 * Float.BYTES > 32L << 10, "block " + avx2.kc() + " x " + n2);
        assertTrue((long) avx2.kc() * (n2 - avx2.panelColumns()) * Float.BYTES <= 32L << 10, "the fewest panels");
        // a block that cannot pass L1d within one C block: no check
        assertEquals(0, KernelRateProbe.denseL2Columns(new DenseTiling(4, 4, 16, 64, 64), 1L << 20));
        // 16 lanes over 4-row tiles: 16 B per vector FMA; at 100 GB/s 0.16 ns; core 0.2 ns, measured 0.3 ns
        var d = KernelRateProbe.denseL2(256, 64, 0.3e-9, 0.2e-9, avx512, 100e9);
        assertEquals(0.16e-9, d.transfer().transferSeconds(), 1e-15);
        assertEquals((0.2 + 0.16 - 0.3) / 0.16, d.transfer().overlap(), 1e-9);
        assertEquals(KernelRateProbe.overlap(0.2e-9, 0.16e-9, 0.3e-9), d.transfer().overlap());
        assertEquals(0, KernelRateProbe.denseL2(256, 64, 0.5e-9, 0.2e-9, avx512, 100e9).transfer().overlap(), "serial or worse");
        assertEquals(1, KernelRateProbe.denseL2(256, 64, 0.2e-9, 0.2e-9, avx512, 100e9).transfer().overlap(), "hidden");
    }

    @Test
    void eachRoundSolvesItsOwnOverlapAndTheProbeKeepsTheirMedian() {
        // the Intel VM's csr check: in-core about 2.8 ns per entry, L2 transfer 3.0 ns; one round's L2
        // case met a slow draw of B's pages (5.2 ns), another's in-L1 case a slow moment (3.4 ns, and its L2 case a fast one)
        double transfer = 3.0e-9;
        double[][] coreMeasured = {{2.8e-9, 4.1e-9}, {2.8e-9, 5.2e-9}, {3.4e-9, 3.3e-9}, {2.7e-9, 4.0e-9}, {2.9e-9, 4.2e-9}};
        List<KernelRates.Transfer> rounds = new ArrayList<>();
        for (double[] cm : coreMeasured) rounds.add(KernelRateProbe.solve(cm[0], transfer, cm[1]));
        assertEquals((2.8 + 3.0 - 4.1) / 2.8, rounds.get(0).overlap(), 1e-9, "a round solves from its own times");
        assertEquals((2.8 + 3.0 - 5.2) / 2.8, rounds.get(1).overlap(), 1e-9);
        assertEquals(1.0, rounds.get(2).overlap(), "clamped: the slow in-L1 time hides more than min(core, transfer)");
        var median = KernelRates.Transfer.median(rounds);
        double[] overlaps = rounds.stream().mapToDouble(KernelRates.Transfer::overlap).sorted().toArray();
        assertEquals(overlaps[2], median.overlap(), "the median of the rounds' overlaps");
        assertEquals((2.8 + 3.0 - 4.1) / 2.8, median.overlap(), 1e-9);
        assertEquals(2.8e-9, median.coreSeconds(), 1e-18);
        assertEquals(4.1e-9, median.measuredSeconds(), 1e-18);
        assertEquals(transfer, median.transferSeconds());
        // an even count takes the mean of the middle two
        assertEquals(2.5, KernelRateProbe.medianOf(List.of(4.0, 1.0, 3.0, 2.0), Double::doubleValue));
        assertThrows(IllegalArgumentException.class, () -> KernelRateProbe.medianOf(List.<Double>of(), Double::doubleValue));
        // dense's check the same way, per field; the check's shape is kept
        DenseTiling avx512 = DenseTiling.choose(512, 48L << 10, 2L << 20);
        List<KernelRates.DenseL2> denseRounds = List.of(KernelRateProbe.denseL2(256, 64, 0.23e-9, 0.224e-9, avx512, 160e9),
                KernelRateProbe.denseL2(256, 64, 0.23e-9, 0.201e-9, avx512, 160e9), KernelRateProbe.denseL2(256, 64, 0.40e-9, 0.215e-9, avx512, 160e9));
        var dense = KernelRateProbe.TransferChecks.median(List.of(new KernelRateProbe.TransferChecks(rounds.get(0), denseRounds.get(0)),
                new KernelRateProbe.TransferChecks(rounds.get(1), denseRounds.get(1)), new KernelRateProbe.TransferChecks(rounds.get(3), denseRounds.get(2)))).dense();
        assertEquals(256, dense.k());
        assertEquals(64, dense.n());
        assertEquals(0.23e-9, dense.transfer().measuredSeconds(), 1e-18);
        assertEquals(0.215e-9, dense.transfer().coreSeconds(), 1e-18);
        assertEquals(KernelRateProbe.overlap(0.201e-9, 0.1e-9, 0.23e-9), dense.transfer().overlap(), 1e-9); // 0.94, 0.71, 0 (serial)
        // both checks together; a machine without dense's check has none in any round
        var both = KernelRateProbe.TransferChecks.median(List.of(new KernelRateProbe.TransferChecks(rounds.get(0), null),
                new KernelRateProbe.TransferChecks(rounds.get(1), null), new KernelRateProbe.TransferChecks(rounds.get(3), null)));
        assertEquals(null, both.dense());
        assertEquals(rounds.get(0).overlap(), both.csr().overlap(), 1e-12);
    }

    @Test
    void aMachineThatHidesItsCachesFallsBackToThePreset(@TempDir Path dir) throws Exception {
        CacheSizes preset = new CacheSizes(48L << 10, 2L << 20, 480L << 20, List.of(12, 16, 16), 64, false);
        CacheSizes none = CacheSizes.read(dir.resolve("absent"), preset);
        assertFalse(none.fromSysfs());
        assertEquals(preset.l2Bytes(), none.l2Bytes());
        assertEquals(preset.l3Bytes(), none.l3Bytes());
        // sysfs with only L1d: L2 and L3 from the preset
        Path idx = Files.createDirectories(dir.resolve("cache/index0"));
        Files.writeString(idx.resolve("level"), "1\n");
        Files.writeString(idx.resolve("type"), "Data\n");
        Files.writeString(idx.resolve("size"), "32K\n");
        Files.writeString(idx.resolve("ways_of_associativity"), "8\n");
        Files.writeString(idx.resolve("coherency_line_size"), "64\n");
        CacheSizes partial = CacheSizes.read(dir.resolve("cache"), preset);
        assertFalse(partial.fromSysfs());
        assertEquals(32L << 10, partial.l1dBytes());
        assertEquals(2L << 20, partial.l2Bytes());
    }

    @Test
    void aGatherWhoseOneCoreAndAllCoreRatesCannotBothBeTrueIsTakenAgain() {
        // the Zen 4 VM's disturbed 1-core draw: 68.5 GB/s on one core, 175 GB/s on two (87.6 each)
        assertFalse(KernelRateProbe.gatherAgrees(68.5e9, 175.3e9, 2, false));
        assertFalse(KernelRateProbe.gatherAgrees(68.5e9, 175.3e9, 2, true));
        // undisturbed draws: 0.86-1.07x, either way
        assertTrue(KernelRateProbe.gatherAgrees(103.6e9, 222.3e9, 2, false));
        assertTrue(KernelRateProbe.gatherAgrees(111.6e9, 191.4e9, 2, false));
        // a disturbed all-core draw (86 GB/s on two cores against 118 on one): with an L2 per core
        // nothing is contended, so it is taken again; with a shared L2 it is contention and kept
        assertFalse(KernelRateProbe.gatherAgrees(117.8e9, 86.1e9, 2, false));
        assertTrue(KernelRateProbe.gatherAgrees(117.8e9, 86.1e9, 2, true));
        assertTrue(KernelRateProbe.gatherAgrees(50e9, 500e9, 1, false), "one core: nothing to compare");
    }
}
