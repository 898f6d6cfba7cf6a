package dev.sparseprof.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.SparseprofException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The noise criteria, the stability a result carries, the machine identity and their JSON: synthetic timings, nothing timed. */
class NoiseAndIdentityTest {
    private static Timing timing(double min, double q1, double median, double q3, double max) {
        return new Timing(11, median, min, max, q1, q3, 1.0);
    }

    @Test
    void eachCriterionNamesItselfAndTheLeastNoisyAttemptRanksFirst() {
        NoiseCriteria n = NoiseCriteria.DEFAULT;
        Timing quiet = timing(0.98, 0.99, 1.0, 1.02, 1.1);
        assertEquals("", n.judge(quiet, 1.0, Double.NaN, Double.NaN).reason());
        assertEquals(0, n.excess(quiet, 1.0), 1e-12);
        Timing wide = timing(0.8, 0.9, 1.0, 1.15, 1.5);
        assertEquals("IQR 25% of median", n.judge(wide, 1.0, Double.NaN, Double.NaN).reason());
        Timing outlier = timing(0.5, 0.99, 1.0, 1.01, 1.6);
        assertEquals("max/min 3.20", n.judge(outlier, 1.0, Double.NaN, Double.NaN).reason());
        assertEquals("drift 1.40 (first third over last)", n.judge(quiet, 1.4, Double.NaN, Double.NaN).reason());
        assertTrue(n.excess(wide, 1.0) > n.excess(timing(0.9, 0.95, 1.0, 1.08, 1.2), 1.0));
    }

    /**
     * The Zen 4 probe-only check's slow layers (docs/kernels.md, "Allocation-free row bodies"):
     * every run of a case 3x slower, quartiles tight and no drift, so only the page faults during
     * the runs (3.8 a run: the kernel's 15 KB a call landing on fresh heap pages) tell.
     */
    @Test
    void pageFaultsDuringTheRunsMakeAnOtherwiseTightCaseNoisy() {
        NoiseCriteria n = NoiseCriteria.DEFAULT;
        Timing slowButTight = timing(0.0587, 0.0690, 0.0708, 0.0720, 0.0760);
        assertEquals("", n.judge(slowButTight, 1.02, Double.NaN, Double.NaN).reason());
        assertEquals("page faults 3.8 per run (fresh heap pages)", n.judge(slowButTight, 1.02, 3.76, Double.NaN).reason());
        assertEquals("", n.judge(slowButTight, 1.02, 0.4, Double.NaN).reason(), "a few faults of the JIT's or the GC's threads pass");
        assertEquals("", n.judge(slowButTight, 1.02, Double.NaN, Double.NaN).reason(), "unknown faults (no /proc) judge nothing");
        assertTrue(n.excess(slowButTight, 1.02, 3.76) > n.excess(slowButTight, 1.02, 0.0));
        assertEquals(n.excess(slowButTight, 1.02), n.excess(slowButTight, 1.02, Double.NaN), 1e-12);
        assertEquals("max/min 3.20", n.judge(timing(0.5, 0.99, 1.0, 1.01, 1.6), 1.0, 5.0, Double.NaN).reason(), "the first criterion met is named");
    }

    /**
     * The Zen 5 VM's tenant episode (SpeedCanary): every kernel slower alike, repetitions tight, so
     * only the canary's reading over its best tells; the slower attempt ranks after the faster.
     */
    @Test
    void aMachineBelowItsBestSpeedMakesAnOtherwiseTightCaseNoisy() {
        NoiseCriteria n = NoiseCriteria.DEFAULT;
        Timing tight = timing(0.98, 0.99, 1.0, 1.02, 1.1);
        assertEquals("FMA canary at 0.78 of its best", n.judge(tight, 1.0, 0.0, 0.78).reason());
        assertEquals("", n.judge(tight, 1.0, 0.0, 0.93).reason(), "a few per cent below the best is a quiet machine's spread");
        assertEquals("", n.judge(tight, 1.0, 0.0, Double.NaN).reason(), "no reading judges nothing");
        assertEquals(1.0, n.excess(tight, 1.0, 0.0, 0.8), 1e-9, "0.8 against 0.9 counts as twice the IQR bound does");
        assertTrue(n.excess(tight, 1.0, 0.0, 0.7) > n.excess(tight, 1.0, 0.0, 0.85));
        assertEquals(0, n.excess(tight, 1.0, 0.0, 1.0), 1e-12);
        assertEquals("IQR 25% of median", n.judge(timing(0.8, 0.9, 1.0, 1.15, 1.5), 1.0, 0.0, 0.5).reason(), "the first criterion met is named");
        assertEquals(new NoiseCriteria.Verdict(NoiseCriterion.CANARY, "FMA canary at 0.78 of its best"), n.judge(tight, 1.0, 0.0, 0.78));
        assertEquals(NoiseCriterion.IQR, n.judge(timing(0.8, 0.9, 1.0, 1.15, 1.5), 1.0, 0.0, 0.5).criterion());
        assertEquals(NoiseCriterion.RANGE, n.judge(timing(0.5, 0.99, 1.0, 1.01, 1.5), 1.0, 0.0, 1.0).criterion());
        assertEquals(NoiseCriterion.DRIFT, n.judge(tight, 1.3, 0.0, 1.0).criterion());
        assertEquals(NoiseCriterion.PAGE_FAULTS, n.judge(tight, 1.0, 4.0, 1.0).criterion());
        assertFalse(n.judge(tight, 1.0, 0.0, 1.0).noisy());
    }

    /** A case read slow against a best that a later layer raised is judged at the end, by that best; an earlier reason stays. */
    @Test
    void speedsAreJudgedAgainstTheRunsFinalBest() {
        Timing t = timing(0.9e-3, 0.95e-3, 1e-3, 1.02e-3, 1.1e-3);
        Measurement early = new Measurement("fc1", "csr", 32, 1, "nnz", 24, 40, 320, 0.66, t, 1.0, 2.0, 1.5,
                new Stability(true, 50, 1, false, "", 180.0, 1.0));
        Measurement noisy = early.withStability(new Stability(true, 50, 3, true, "IQR 25% of median", 150.0, 0.9));
        Measurement quick = early.withStability(new Stability(true, 50, 1, false, "", 219.0, 1.0));
        Measurement gather = new Measurement("fc1", "coo", 32, 1, "nnz", 24, 40, 320, 0.66, t, 1.0, 2.0, 1.5,
                new Stability(true, 50, 1, false, "", 150.0, 1.0));
        List<Measurement> judged = CpuMeasureRun.judgeSpeeds(List.of(early, noisy, quick, gather), Set.of("csr"), 220.0, NoiseCriteria.DEFAULT);
        assertEquals(new Stability(true, 50, 1, true, "FMA canary at 0.82 of its best", NoiseCriterion.CANARY, 180.0, 180.0 / 220),
                judged.get(0).stability());
        assertEquals(NoiseCriterion.IQR, judged.get(1).stability().criterion(), "an earlier reason keeps its criterion");
        assertTrue(NoiseCriteria.timedSlow(judged.get(0).stability()), "noisy by the canary alone, as calibrate --quick reads it");
        assertEquals("IQR 25% of median", judged.get(1).stability().reason());
        assertFalse(NoiseCriteria.timedSlow(judged.get(1).stability()));
        assertEquals(150.0 / 220, judged.get(1).stability().speed(), 1e-12);
        assertFalse(judged.get(2).stability().noisy());
        assertEquals(219.0 / 220, judged.get(2).stability().speed(), 1e-12);
        assertFalse(judged.get(3).stability().noisy(), "a format the FMA loop does not bound is not judged by it");
        assertEquals(150.0 / 220, judged.get(3).stability().speed(), 1e-12, "but keeps its reading");
    }

    /**
     * A kernel's page faults per run: its share of the count read around every kernel's timed runs,
     * plus its own untimed check; unknown where a read failed or nothing was counted. Nothing is read
     * between timed runs (each read is a system call, which empties the TLB on a guest with page-table
     * isolation and no PCID).
     */
    @Test
    void pageFaultsAreTheTimedRunsShareAndTheKernelsOwnCheck() {
        TimingHarness.Samples s = new TimingHarness.Samples(3);
        assertTrue(Double.isNaN(s.faultsPerRun()), "not counted yet");
        s.shareFaults(100, 130, 10);
        assertEquals(3.0, s.faultsPerRun(), 1e-12);
        s.shareFaults(5, 5, 0);
        assertEquals(3.0, s.faultsPerRun(), 1e-12, "no runs: nothing added");
        TimingHarness.Samples unknown = new TimingHarness.Samples(3);
        unknown.shareFaults(-1, 40, 10);
        assertTrue(Double.isNaN(unknown.faultsPerRun()), "a failed read: unknown");
    }

    @Test
    void pageFaultsAreReadFromProcStatPastTheCommandName() {
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 123456 0 78 0 950 40 0 0 20 0 19 0 1000 1 2\n";
        ByteBuffer text = ByteBuffer.wrap(stat.getBytes(StandardCharsets.US_ASCII));
        assertEquals(123456 + 78, PageFaults.parse(text, stat.length()));
        ByteBuffer cut = ByteBuffer.wrap("4242 (java) S 1 4242 4242 0 -1 4194560 123".getBytes(StandardCharsets.US_ASCII));
        assertEquals(-1, PageFaults.parse(cut, cut.capacity()), "no field 12: unknown");
        assertEquals(-1, PageFaults.parse(ByteBuffer.allocate(0), 0));
        try (PageFaults faults = PageFaults.open()) {
            long before = faults.count();
            if (before >= 0) assertTrue(faults.count() >= before, "this process's count never falls");
        }
        assertEquals(-1, PageFaults.NONE.count());
    }

    @Test
    void stabilityLabelsSayWhatHappened() {
        assertEquals("ok", Stability.UNKNOWN.label());
        assertEquals("ok (2 tries)", new Stability(true, 40, 2, false, "").label());
        assertEquals("noisy: IQR 14% of median (3 tries), warm-up unsettled", new Stability(false, 900, 3, true, "IQR 14% of median").label());
    }

    @Test
    void identityComesFromTheHeaderOrFromTheOldMachineText() {
        MachineIdentity old = MachineIdentity.fromDescription("Intel(R) Xeon(R) Processor, 2 CPUs");
        assertEquals(new MachineIdentity("Intel(R) Xeon(R) Processor", 2, 0), old);
        assertEquals("intel-r-xeon-r-processor", old.folderName());
        MachineIdentity amd = new MachineIdentity("AMD EPYC 7B13 64-Core Processor", 2, 256);
        assertEquals("amd-epyc-7b13-64-core-processor-256bit", amd.folderName());
        assertTrue(old.sameKind("Intel(R) Xeon(R) Processor", 512), "an old file's unknown width matches any");
        assertFalse(amd.sameKind("AMD EPYC 7B13 64-Core Processor", 512), "another SIMD width is another machine");
        assertFalse(amd.sameKind("Intel(R) Xeon(R) Processor", 256));
    }

    @Test
    void stabilityAndIdentityRoundTripThroughTheJson() {
        Timing t = timing(0.9e-3, 0.95e-3, 1e-3, 1.2e-3, 1.9e-3);
        Measurement m = new Measurement("fc1", "csr", 32, 1, "nnz", 24, 40, 320, 0.66, t, 1.0, 2.0, 1.5,
                new Stability(true, 50, 3, true, "IQR 25% of median", 201.5, 0.93));
        MeasurementsHeader h = new MeasurementsHeader("m.onnx", "AMD EPYC, 2 CPUs", "2026-12-03T13:00:00Z", "25", "sparseprof measure",
                new MachineIdentity("AMD EPYC", 2, 256), List.of());
        MeasurementsFile back = MeasurementsFile.parse("x.json", new MeasurementsFile(h, List.of(m)).toJson());
        assertEquals(h, back.header());
        assertEquals(List.of(m), back.results());
        String old = new MeasurementsFile(new MeasurementsHeader("m", "Intel(R) Xeon(R) Processor, 2 CPUs", "d", "25", "c"),
                List.of(m.withStability(Stability.UNKNOWN))).toJson()
                .replaceAll(",\\s*\"(cpuModel|cpus|vectorBits|warmupSettled|warmupRuns|attempts|noisy|noise|noiseCriterion)\": [^,}]+", "");
        MeasurementsFile before = MeasurementsFile.parse("old.json", old);
        assertEquals(Stability.UNKNOWN, before.results().get(0).stability());
        assertTrue(new MeasurementsFile(h, List.of(m)).toJson().contains("\"noiseCriterion\": \"iqr\""));
        String noCanary = new MeasurementsFile(h, List.of(m)).toJson().replaceAll(",\\s*\"(canaryGflops|speed|noiseCriterion)\": [^,}]+", "");
        assertEquals(new Stability(true, 50, 3, true, "IQR 25% of median"), MeasurementsFile.parse("older.json", noCanary).results().get(0).stability(),
                "a file written before the canary reads no speed");
        assertEquals(new MachineIdentity("Intel(R) Xeon(R) Processor", 2, 0), before.header().identity());
        assertEquals(NoiseCriterion.IQR, MeasurementsFile.parse("older.json", noCanary).results().get(0).stability().criterion(),
                "a file written before the criterion was kept: as its reason names it");
        String lying = new MeasurementsFile(h, List.of(m)).toJson().replace("\"noiseCriterion\": \"iqr\"", "\"noiseCriterion\": \"none\"");
        SparseprofException e = assertThrows(SparseprofException.class, () -> MeasurementsFile.parse("lying.json", lying));
        assertTrue(e.getMessage().contains("noiseCriterion 'none' does not fit noisy: true"), e.getMessage());
    }
}
