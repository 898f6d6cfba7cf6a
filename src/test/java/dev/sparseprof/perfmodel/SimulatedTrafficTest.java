package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Trace-driven traffic through memsim on the Zen 5 spec, against the compulsory bytes and the analytical model. */
class SimulatedTrafficTest {
    private static final HardwareSpec ZEN5 = HardwareSpecs.load("epyc-zen5-2c");

    private static Workload random(int m, int k, int n, double density, long seed) {
        Random rnd = new Random(seed);
        float[] a = new float[m * k];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = 1 + rnd.nextFloat();
        MatrixView view = MatrixView.of(m, k, a);
        return new Workload("r", MatrixScan.of(view), n, DType.F32, view);
    }

    @Test
    void csrReplayMovesAtLeastTheCompulsoryBytesAndTheGapStillAddsUp() {
        Workload w = random(256, 256, 64, 0.1, 1);
        SimulatedTraffic sim = new SimulatedTraffic(10_000_000);
        LayerEstimate e = new PerfModel(ZEN5, sim).estimate(w, FormatModels.byName("csr"));
        Traffic t = e.predicted().traffic();
        assertEquals("simulated (memsim, all rows)", t.source());
        double compulsory = w.storage("csr").totalBytes() + 256.0 * 64 * 4 * 2; // A, B and C once
        assertTrue(t.dramBytes() >= 0.95 * compulsory, t.dramBytes() + " vs " + compulsory);
        assertTrue(t.dramBytes() <= 3 * compulsory, t.dramBytes() + " vs " + compulsory);
        assertEquals(e.predictedSeconds(), e.gap().predictedSeconds(), 1e-12 * e.predictedSeconds());
        assertEquals(e.dense().traffic().source(), "simulated (memsim, all rows)");
    }

    @Test
    void sampledReplayAgreesWithTheFullOneAndReportsItsError() {
        Workload w = random(512, 256, 32, 0.2, 2);
        Traffic full = new PerfModel(ZEN5, new SimulatedTraffic(100_000_000)).estimate(w, FormatModels.byName("csr")).predicted().traffic();
        Traffic sampled = new PerfModel(ZEN5, new SimulatedTraffic(30_000)).estimate(w, FormatModels.byName("csr")).predicted().traffic();
        assertTrue(sampled.source().startsWith("simulated (memsim, 1 in "), sampled.source());
        assertTrue(sampled.samplingError() < 0.1, "sampling error " + sampled.samplingError());
        assertEquals(full.dramBytes(), sampled.dramBytes(), 0.25 * full.dramBytes());
    }

    @Test
    void aSampledDenseReplayDoesNotScaleBsFirstTouch() {
        // B (512 x 64 fp32 = 128 KiB) is read by every sampled row; scaling its cold misses by the
        // sampling factor would multiply DRAM traffic. The sampled estimate stays near the full one.
        Workload w = random(256, 512, 64, 1.0, 4);
        Traffic full = new PerfModel(ZEN5, new SimulatedTraffic(100_000_000)).estimate(w, FormatModels.byName("dense")).predicted().traffic();
        Traffic sampled = new PerfModel(ZEN5, new SimulatedTraffic(200_000)).estimate(w, FormatModels.byName("dense")).predicted().traffic();
        assertTrue(sampled.source().contains("1 in "), sampled.source());
        assertEquals(full.dramBytes(), sampled.dramBytes(), 0.3 * full.dramBytes());
    }

    @Test
    void fallsBackToAnalyticalWhereNoTraceExistsAndSaysWhy() {
        Workload w = random(64, 64, 16, 0.3, 3);
        Traffic gpu = new PerfModel(HardwareSpecs.load("a100-80gb"), new SimulatedTraffic(100_000))
                .estimate(w.withDType(DType.F16), FormatModels.byName("coo")).predicted().traffic();
        assertEquals("analytical (no traced coo kernel)", gpu.source());
        Traffic coo = new PerfModel(ZEN5, new SimulatedTraffic(100_000)).estimate(w, FormatModels.byName("coo")).predicted().traffic();
        assertEquals("analytical (no traced coo kernel)", coo.source());
    }
}
