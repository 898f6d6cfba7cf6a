package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.util.DType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A GPU sparse kernel's L1 roof counts the L1's fills beside its requests ({@link Roofline#gpuL1FillBytes}):
 * the sectors its loads miss are written into the L1/shared SRAM before they are read out, as
 * {@code BlockTensorSpmm} counts for its own loads; stores and L1-bypassing streams fill nothing.
 */
class GpuL1FillTest {
    private static final GpuSpec A100 = (GpuSpec) HardwareSpecs.load("a100-80gb");

    @Test
    void csrL1RoofIsItsRequestsPlusTheMissedLoadBytes() {
        Workload w = Workload.uniformSparse("w", 8192, 2048, 128, DType.F32, 0.25, false);
        KernelPlan plan = FormatModels.byName("csr").plan(w, A100);
        Traffic t = TrafficModel.ANALYTICAL.traffic(w, plan, A100, Features.ALL);
        Prediction p = Roofline.predict(w, plan, A100, TrafficModel.ANALYTICAL, Features.ALL);
        double cBytes = 8192.0 * 128 * 4;
        double fill = Roofline.gpuL1FillBytes(plan, t, Features.ALL);
        assertEquals(t.bytesAt(1) - cBytes, fill, 1e-6 * fill, "what the L1 passes on, less C's write-through");
        assertTrue(fill > 0.5 * t.bytesAt(0), "B's gathers (1 MB) miss the L1 mostly: " + fill + " of " + t.bytesAt(0));
        double l1 = (t.bytesAt(0) + fill) / A100.l1().bandwidthBytesPerSecond() * p.imbalanceFactor();
        assertEquals(l1, p.levelSeconds()[0], 1e-9 * l1);
    }

    @Test
    void storesAndBypassingStreamsFillNothing() {
        Traffic t = new Traffic(List.of("L1", "L2", "DRAM"), new double[] {300, 250, 100}, new double[3], "analytical", 0);
        KernelPlan plan = new KernelPlan("x", "x", ComputeUnit.VECTOR, DType.F32, 1,
                List.of(DataStream.streamed("A", 100, false), new DataStream("atomics", 100, 100, 100, false, false, true),
                        DataStream.written("C", 50)),
                Balance.of("one", 1, 1), 0, 1, 0);
        assertEquals(100, Roofline.gpuL1FillBytes(plan, t, Features.ALL), 1e-12, "250 passed on, less 100 bypassing and 50 written");
        assertTrue(DataStream.written("C", 50).store());
        assertTrue(!DataStream.streamed("C", 50, false).store());
    }

    @Test
    void tiledGemmsCountTheirOwnSharedMemoryPasses() {
        Workload w = Workload.uniformSparse("w", 4096, 4096, 512, DType.F16, 1, false);
        KernelPlan dense = FormatModels.byName("dense").plan(w, A100);
        Traffic t = TrafficModel.ANALYTICAL.traffic(w, dense, A100, Features.ALL);
        Prediction p = Roofline.predict(w, dense, A100, TrafficModel.ANALYTICAL, Features.ALL);
        double bw = A100.l1().bandwidthBytesPerSecond();
        assertEquals(t.bytesAt(0) / bw * p.imbalanceFactor(), p.levelSeconds()[0], 1e-12 + 1e-9 * p.levelSeconds()[0]);
    }
}
