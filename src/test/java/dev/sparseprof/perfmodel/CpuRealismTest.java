package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The CPU realism terms, hand-checked: dense efficiency, the gather latency roof (Little's law), the gather issue cycles. */
class CpuRealismTest {
    private static Workload random(int m, int k, int n, double density) {
        Random rnd = new Random(5);
        float[] a = new float[m * k];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = 1 + rnd.nextFloat();
        return Workloads.of("r", MatrixScan.of(m, k, a), n, DType.F32);
    }

    private static CpuSpec spec(String extra) {
        return (CpuSpec) HardwareSpecs.parse("t.yaml", "version: 1\npreset: epyc-zen5-2c\n" + extra);
    }

    @Test
    void theDenseGemmRunsAtItsEfficiencyOfThePeak() {
        CpuSpec half = spec("overheads:\n  denseEfficiency: 0.5\n");
        Workload w = random(256, 256, 64, 1.0);
        Prediction p = new PerfModel(half, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL);
        double peak = half.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F32);
        assertEquals(w.denseFlops() / (0.5 * peak) * p.imbalanceFactor(), p.computeSeconds(), 1e-15);
    }

    @Test
    void gathersAreBoundByMissesInFlightAndTheExpectedLatency() {
        // One miss in flight per core: the latency roof dominates and equals Little's law by hand.
        CpuSpec c = spec("cpu:\n  missesInFlight: 1\n");
        Workload w = random(512, 2048, 64, 0.05);
        Prediction p = new PerfModel(c, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals("latency", p.bottleneck());
        Traffic t = p.traffic();
        double l1 = 4;
        double l2 = 14;
        double l3 = 43;
        double dram = 175e-9 * 3.7e9;
        double m1 = t.missRate(0);
        double m2 = t.missRate(1);
        double m3 = t.missRate(2);
        double extra = m1 * (l2 - l1) + m1 * m2 * (l3 - l2) + m1 * m2 * m3 * (dram - l3);
        double gathers = w.nnz() * (double) Machine.columnTiles(c, w);
        assertEquals(gathers, p.plan().sliceGathers(), 0);
        assertEquals(gathers * extra / (1 * 2 * 3.7e9) * p.imbalanceFactor(), p.latencySeconds(), 1e-12);
        // More miss buffers, proportionally less latency time.
        Prediction wide = new PerfModel(spec("cpu:\n  missesInFlight: 8\n"), TrafficModel.ANALYTICAL)
                .predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals(p.latencySeconds() / 8, wide.latencySeconds(), 1e-12);
        // The dense GEMM streams: no latency roof.
        assertEquals(0, new PerfModel(c, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("dense"), Features.ALL).latencySeconds());
    }

    @Test
    void gatherCyclesAddOncePerGatheredSlice() {
        Workload w = random(256, 512, 64, 0.1);
        CpuSpec none = spec("overheads:\n  gather: 0cycles\n");
        CpuSpec three = spec("overheads:\n  gather: 3cycles\n");
        double base = new PerfModel(none, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL).overheadSeconds();
        Prediction p = new PerfModel(three, TrafficModel.ANALYTICAL).predict(w, FormatModels.byName("csr"), Features.ALL);
        assertEquals(base + p.plan().sliceGathers() * 3 / (2 * 3.7e9), p.overheadSeconds(), 1e-15);
        assertTrue(p.plan().sliceGathers() > 0);
    }
}
