package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.util.DType;
import org.junit.jupiter.api.Test;

/** The 2:4 model's shape: at most 2x, compressed A in the traffic, small GEMMs gain little. */
class TwoFourModelTest {
    private final HardwareSpec a100 = HardwareSpecs.load("a100-80gb");
    private final PerfModel model = new PerfModel(a100, TrafficModel.ANALYTICAL);

    private LayerEstimate twoFour(int m, int k, long n) {
        return model.estimate(Workload.uniformSparse("g", m, k, n, DType.F16, 0.5, true), FormatModels.byName("2:4"));
    }

    @Test
    void neverMoreThanTwiceDenseAndLargeGemmsGainMost() {
        for (int size : new int[] {256, 1024, 4096, 8192}) {
            LayerEstimate e = twoFour(size, size, size);
            assertTrue(e.speedup() <= 2.0 + 1e-9, size + ": " + e.speedup());
            assertEquals(ComputeUnit.SPARSE_TENSOR, e.predicted().plan().unit());
        }
        assertTrue(twoFour(8192, 8192, 8192).speedup() > 1.5);
        assertTrue(twoFour(384, 384, 8).speedup() < 1.1, "a launch-bound GEMM gains little");
    }

    @Test
    void compressedATrafficIsValuesPlusMetadata() {
        Workload w = Workload.uniformSparse("g", 1024, 1024, 1024, DType.F16, 0.5, true);
        // fp16: 4 logical elements = 2 x 2 B values + 0.5 B metadata (hardware-facts.md section 2): 56.25 % of dense.
        assertEquals(0.5625 * 1024 * 1024 * 2, FormatModels.byName("2:4").storedBytes(w), 1e-6);
        KernelPlan p = FormatModels.byName("2:4").plan(w, a100);
        double a = 0;
        double meta = 0;
        for (DataStream d : p.streams()) {
            if (d.role().equals("A")) a = d.footprintBytes();
            if (d.role().equals("metadata")) meta = d.footprintBytes();
        }
        assertEquals(1024 * 512 * 2, a, 1e-6);
        assertEquals(1024 * 256 * 0.5, meta, 1e-6);
    }

    @Test
    void notCompliantOrNoSparsePeakIsExplained() {
        Workload dense = Workload.dense("d", 64, 64, 64, DType.F16);
        assertTrue(FormatModels.byName("2:4").unsupported(dense, a100).contains("not 2:4"));
        Workload fp32 = Workload.uniformSparse("g", 64, 64, 64, DType.F32, 0.5, true);
        assertEquals("no sparseTensor peak for fp32", FormatModels.byName("2:4").unsupported(fp32, a100));
    }

    @Test
    void unstructuredCsrCrossesDenseOnTheLstmProblem() {
        double at = PublishedCases.crossover(model, FormatModels.byName("csr"), 8192, 2048, 128, DType.F32, false);
        assertTrue(at > 0.6 && at < 0.9, "crossover " + at);
        assertTrue(model.estimate(Workload.uniformSparse("l", 8192, 2048, 128, DType.F32, 0.5, false), FormatModels.byName("csr")).speedup() < 1);
        assertTrue(model.estimate(Workload.uniformSparse("l", 8192, 2048, 128, DType.F32, 0.05, false), FormatModels.byName("csr")).speedup() > 1);
    }
}
