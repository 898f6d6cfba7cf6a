package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The CPU dense kernel multiplies B's zero padding too (kernel.DenseGemm: whole four-vector panels,
 * then two-vector panels while more than a vector is left, then a one-vector panel); on 512-bit
 * SIMD, fp32: panels of 64, 32 and 16 columns.
 */
class CpuDensePaddingTest {
    private static Workload dense(int n) {
        Random rnd = new Random(3);
        float[] a = new float[64 * 64];
        for (int i = 0; i < a.length; i++) a[i] = 1 + rnd.nextFloat();
        return Workloads.of("d", MatrixScan.of(64, 64, a), n, DType.F32);
    }

    private static double executed(int n) {
        CpuSpec zen5 = (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"); // 512-bit SIMD: 16 fp32 lanes
        return FormatModels.byName("dense").plan(dense(n), zen5).executedFlops();
    }

    @Test
    void paddedColumnsAreExecuted() {
        double perColumn = 2.0 * 64 * 64;
        assertEquals(16 * perColumn, executed(8), 1e-9, "N = 8: one 16-lane panel");
        assertEquals(16 * perColumn, executed(16), 1e-9);
        assertEquals(32 * perColumn, executed(32), 1e-9, "N = 32: one two-vector panel, no zeros");
        assertEquals(48 * perColumn, executed(48), 1e-9, "N = 48: a 32- and a 16-column panel");
        assertEquals(48 * perColumn, executed(40), 1e-9, "N = 40: the 16-column panel holds 8 zeros");
        assertEquals(128 * perColumn, executed(128), 1e-9, "N = 128: two full panels");
        assertEquals(144 * perColumn, executed(130), 1e-9, "N = 130: two full panels and a one-vector panel");
        assertEquals(160 * perColumn, executed(150), 1e-9, "N = 150: two full panels and a two-vector panel");
    }

    @Test
    void gpuDenseFlopsAreUnpadded() {
        Workload w = dense(32);
        assertEquals(w.denseFlops(), FormatModels.byName("dense").plan(w, HardwareSpecs.load("a100-80gb")).executedFlops(), 1e-9);
    }
}
