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

/** GPU-style traces through a sectored per-SM L1 and a shared L2 on the A100 spec, all SMs against a sampled subset. */
class GpuSampledReplayTest {
    private static final HardwareSpec A100 = HardwareSpecs.load("a100-80gb");

    private static Workload random(int m, int k, int n, double density, long seed, DType dtype) {
        Random rnd = new Random(seed);
        float[] a = new float[m * k];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = 1 + rnd.nextFloat();
        MatrixView view = MatrixView.of(m, k, a);
        return new Workload("r", MatrixScan.of(view), n, dtype, view);
    }

    private static Traffic traffic(Workload w, String format, long budget) {
        // The replay itself (a check on the GEMM's analytical tile schedule, which the dense plan's prediction always uses).
        return new SimulatedTraffic(budget).traffic(w, FormatModels.byName(format).plan(w, A100), A100, Features.ALL);
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
}
