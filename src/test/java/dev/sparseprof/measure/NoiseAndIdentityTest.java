package dev.sparseprof.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
        assertEquals("", n.verdict(quiet, 1.0));
        assertEquals(0, n.excess(quiet, 1.0), 1e-12);
        Timing wide = timing(0.8, 0.9, 1.0, 1.15, 1.5);
        assertEquals("IQR 25% of median", n.verdict(wide, 1.0));
        Timing outlier = timing(0.5, 0.99, 1.0, 1.01, 1.6);
        assertEquals("max/min 3.20", n.verdict(outlier, 1.0));
        assertEquals("drift 1.40 (first third over last)", n.verdict(quiet, 1.4));
        assertTrue(n.excess(wide, 1.0) > n.excess(timing(0.9, 0.95, 1.0, 1.08, 1.2), 1.0));
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
                new Stability(true, 50, 3, true, "IQR 25% of median"));
        MeasurementsHeader h = new MeasurementsHeader("m.onnx", "AMD EPYC, 2 CPUs", "2026-12-03T13:00:00Z", "25", "sparseprof measure",
                new MachineIdentity("AMD EPYC", 2, 256), List.of());
        MeasurementsFile back = MeasurementsFile.parse("x.json", new MeasurementsFile(h, List.of(m)).toJson());
        assertEquals(h, back.header());
        assertEquals(List.of(m), back.results());
        String old = new MeasurementsFile(new MeasurementsHeader("m", "Intel(R) Xeon(R) Processor, 2 CPUs", "d", "25", "c"),
                List.of(m.withStability(Stability.UNKNOWN))).toJson()
                .replaceAll(",\\s*\"(cpuModel|cpus|vectorBits|warmupSettled|warmupRuns|attempts|noisy|noise)\": [^,}]+", "");
        MeasurementsFile before = MeasurementsFile.parse("old.json", old);
        assertEquals(Stability.UNKNOWN, before.results().get(0).stability());
        assertEquals(new MachineIdentity("Intel(R) Xeon(R) Processor", 2, 0), before.header().identity());
    }
}
