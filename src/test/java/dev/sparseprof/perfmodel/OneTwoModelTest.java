package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.List;
import org.junit.jupiter.api.Test;

/** tf32 on Ampere's sparse tensor cores is 1:2, not 2:4 (hardware-facts.md section 2): modelled and named so. */
class OneTwoModelTest {
    private static final HardwareSpec A100 = HardwareSpecs.load("a100-80gb");

    /** One kept slot of every pair along K (also 2:4 compliant: at most 2 of every 4). */
    private static Workload oneTwo(int m, int k, int n, DType dtype) {
        float[] a = new float[m * k];
        for (int r = 0; r < m; r++) for (int c = (r % 2); c < k; c += 2) a[r * k + c] = 1 + (r + c) % 7;
        MatrixView view = MatrixView.of(m, k, a);
        ScanOptions scan = new ScanOptions(List.of(NmPattern.TWO_FOUR, NmPattern.ONE_TWO), List.of(), false, 1);
        return new Workload("g", MatrixScan.of(view, scan), n, dtype, view);
    }

    @Test
    void tf32RunsOneTwoAtMostTwiceDense() {
        Workload w = oneTwo(1024, 1024, 2048, DType.TF32);
        FormatModel oneTwo = FormatModels.byName("1:2");
        assertNull(oneTwo.unsupported(w, A100));
        LayerEstimate e = new PerfModel(A100, TrafficModel.ANALYTICAL).estimate(w, oneTwo);
        assertEquals("1:2", e.format());
        assertTrue(e.predicted().plan().kernel().startsWith("1:2 GEMM"), e.predicted().plan().kernel());
        assertTrue(e.speedup() > 1 && e.speedup() <= 2.0 + 1e-9, "speedup " + e.speedup());
        assertEquals(w.storage("1:2").totalBytes(), oneTwo.storedBytes(w), 1e-6);
    }

    @Test
    void twoFourOnTf32AndOneTwoOnFp16NameTheRightPattern() {
        Workload tf32 = oneTwo(256, 256, 128, DType.TF32);
        assertEquals("the sparse tensor cores run 1:2 for tf32, not 2:4", FormatModels.byName("2:4").unsupported(tf32, A100));
        assertEquals("the sparse tensor cores run 2:4 for fp16, not 1:2",
                FormatModels.byName("1:2").unsupported(tf32.withDType(DType.F16), A100));
    }
}
