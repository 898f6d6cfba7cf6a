package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * GPU-style traces through a sectored per-SM L1 and a shared L2 on the A100 spec, all SMs against a
 * sampled subset; and the default GPU traffic, analytical with this replay as its check.
 */
class GpuSampledReplayTest {
    private static final HardwareSpec A100 = HardwareSpecs.load("a100-80gb");

    private static Workload random(int m, int k, int n, double density, long seed, DType dtype) {
        Random rnd = new Random(seed);
        float[] a = new float[m * k];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = 1 + rnd.nextFloat();
        MatrixView view = MatrixView.of(m, k, a);
        return new Workload("r", MatrixScan.of(view), n, dtype, view);
    }

    /** The replay's bytes as a Traffic: L1 arriving, L2 arriving (L1's misses), DRAM. */
    private static Traffic traffic(Workload w, String format, long budget) {
        SimulatedTraffic.Replay r = GpuSampledReplay.replay(w, format, (GpuSpec) A100, budget);
        return new Traffic(List.of("L1", "L2", "DRAM"), new double[] {r.arriving()[0], r.passed()[0], r.passed()[1]}, new double[3],
                r.label(), r.samplingError());
    }

    @Test
    void csrReplayOfAllSmsMovesTheCompulsoryBytesFromDram() {
        Workload w = random(256, 512, 64, 0.1, 1, DType.F32);
        Traffic t = traffic(w, "csr", 100_000_000);
        assertEquals("simulated (memsim GPU, all 108 SMs)", t.source());
        double compulsory = w.storage("csr").totalBytes() + 512.0 * 64 * 4 + 256.0 * 64 * 4;
        assertTrue(t.dramBytes() >= 0.95 * compulsory, t.dramBytes() + " vs " + compulsory);
        assertTrue(t.dramBytes() <= 2.5 * compulsory, t.dramBytes() + " vs " + compulsory);
        // Every stored entry gathers two 32-lane segments of B (64 fp32 columns = 8 sectors) at least.
        assertTrue(t.bytesAt(0) >= w.nnz() * 8 * 32.0, "L1 bytes " + t.bytesAt(0));
    }

    @Test
    void aSampledReplayLandsNearTheFullOneAndShowsItsError() {
        for (String format : new String[] {"csr", "dense"}) {
            Workload w = random(1024, 512, 64, format.equals("csr") ? 0.1 : 1.0, 2, DType.F32);
            Traffic full = traffic(w, format, 1_000_000_000);
            Traffic sampled = traffic(w, format, 200_000);
            assertTrue(sampled.source().contains(" of 108 SMs, 2 subsets"), sampled.source());
            assertTrue(sampled.samplingError() < 0.2, format + ": sampling error " + sampled.samplingError());
            assertEquals(full.bytesAt(0), sampled.bytesAt(0), 0.15 * full.bytesAt(0), format + " L1");
            assertEquals(full.bytesAt(1), sampled.bytesAt(1), 0.15 * full.bytesAt(1), format + " L2");
            assertEquals(full.dramBytes(), sampled.dramBytes(), 0.3 * full.dramBytes(), format + " DRAM");
        }
    }

    @Test
    void halfPrecisionHalvesTheValueTrafficAndSaysSo() {
        Workload w = random(256, 256, 64, 1.0, 3, DType.F32);
        Traffic single = traffic(w, "dense", 1_000_000_000);
        Traffic half = traffic(w.withDType(DType.F16), "dense", 1_000_000_000);
        assertTrue(half.source().contains("scaled to 16-bit values"), half.source());
        assertEquals(single.dramBytes() / 2, half.dramBytes(), 0.01 * single.dramBytes());
    }

    @Test
    void gpuTrafficIsAnalyticalWithTheReplayOfASampleAsItsCheck() {
        Workload w = random(512, 512, 256, 0.3, 4, DType.F16);
        SimulatedTraffic sim = SimulatedTraffic.checked(100_000);
        LayerEstimate e = new PerfModel(A100, sim).estimate(w, FormatModels.byName("csr"));
        Traffic t = e.predicted().traffic();
        Traffic analytical = new PerfModel(A100, TrafficModel.ANALYTICAL).estimate(w, FormatModels.byName("csr")).predicted().traffic();
        assertEquals(SimulatedTraffic.CHECKED_SOURCE, t.source());
        assertArrayEquals(analytical.bytes(), t.bytes(), "the analytical bytes, whatever the budget");
        TrafficCheck c = t.check();
        assertTrue(c != null, "csr has a GPU trace: a check");
        assertTrue(c.sample().contains("N 64 of 256"), c.sample());
        assertEquals(List.of("L2", "DRAM"), c.levels());
        for (int i = 0; i < 2; i++) assertTrue(c.replayBytes()[i] > 0 && c.analyticalBytes()[i] > 0, c.levels().get(i));
        // One check per format, shape, N and density: the same object for the same layer again.
        assertTrue(c == new PerfModel(A100, sim).estimate(w, FormatModels.byName("csr")).predicted().traffic().check());
        // The dense baseline is checked too; a format without a GPU trace is not.
        assertTrue(e.dense().traffic().check() != null, "dense check");
        assertEquals(null, new PerfModel(A100, sim).estimate(w, FormatModels.byName("coo")).predicted().traffic().check());
    }

    @Test
    void aSimulationMakesTheChecksItShowsAndNotTheRankedCandidatesOnes() {
        Workload w = random(512, 512, 256, 0.3, 5, DType.F16);
        SimulatedTraffic sim = SimulatedTraffic.checked(100_000);
        PerfModel model = new PerfModel(A100, sim);
        List<FormatModel> formats = List.of(FormatModels.byName("dense"), FormatModels.byName("csr"));
        Simulation.Result r = Simulation.run(model, List.of(w), new Simulation.Options(256, DType.F16, Workloads.Pruning.NONE, 0, formats));
        LayerEstimate shown = r.layers().get(0);
        // Made before run returns (a report is written after the model's file is closed).
        assertTrue(((PendingCheck) shown.dense().traffic().pendingCheck()).made(), "the dense baseline's check");
        assertTrue(((PendingCheck) shown.predicted().traffic().pendingCheck()).made(), "the chosen estimate's check");
        assertEquals("dense", shown.format(), "a 70%-dense layer: tensor-core dense wins over csr");
        PendingCheck ranked = (PendingCheck) model.estimate(w, FormatModels.byName("csr")).predicted().traffic().pendingCheck();
        assertTrue(!ranked.made(), "the ranked csr candidate's replay is not made until read");
        // When it is read, it is the check an eager model makes: the replay of the same sample.
        TrafficCheck late = ranked.get();
        TrafficCheck eager = GpuReplayCheck.of(w, "csr", (GpuSpec) A100, 100_000);
        assertArrayEquals(eager.replayBytes(), late.replayBytes());
        assertArrayEquals(eager.analyticalBytes(), late.analyticalBytes());
        assertEquals(eager.sample(), late.sample());
    }
}
