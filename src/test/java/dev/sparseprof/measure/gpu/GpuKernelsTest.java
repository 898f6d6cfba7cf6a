package dev.sparseprof.measure.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.MatrixView;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs every CUDA kernel against the CPU reference. Without a GPU (no libcuda.so.1, or cuInit
 * failing) the whole class is skipped with the one-line reason.
 */
class GpuKernelsTest {
    private static GpuSpmmRunner runner;
    private static String unavailable;

    @BeforeAll
    static void openGpu() {
        try {
            runner = GpuSpmmRunner.open(new GpuRunSettings(1, 3, 5, 1L << 30));
        } catch (GpuUnavailableException e) {
            unavailable = e.getMessage();
        }
    }

    @AfterAll
    static void closeGpu() {
        if (runner != null) runner.close();
    }

    private static void needGpu() {
        Assumptions.assumeTrue(runner != null, unavailable);
    }

    @Test
    void withoutAGpuTheReasonIsOneLine() {
        if (runner != null) return;
        assertTrue(unavailable.startsWith("no GPU: "), unavailable);
        assertFalse(unavailable.contains("\n"), unavailable);
    }

    private static float[] randomSparse(int rows, int cols, double density, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] w = new float[rows * cols];
        for (int i = 0; i < w.length; i++) if (rnd.nextDouble() < density) w[i] = (float) (rnd.nextDouble() - 0.5);
        return w;
    }

    private static CsrMatrix csr(float[] w, int rows, int cols) {
        return CsrMatrix.from(MatrixView.of(rows, cols, w));
    }

    @Test
    void csrRowSplitMatchesTheReference() {
        needGpu();
        float[] w = randomSparse(96, 80, 0.1, 1);
        GpuMeasurement m = runner.csr("t", csr(w, 96, 80), 40);
        assertTrue(m.relativeError() < 1e-5, "error " + m.relativeError());
        assertEquals("csr-rowsplit", m.kernel());
    }

    @Test
    void bsrMatchesTheReference() {
        needGpu();
        float[] w = randomSparse(62, 64, 0.2, 2); // 62 rows: the last block row is padded
        GpuMeasurement m = runner.bsr("t", BsrMatrix.from(csr(w, 62, 64), new BlockShape(4, 4)), 33);
        assertTrue(m.relativeError() < 1e-5, "error " + m.relativeError());
    }

    @Test
    void denseKernelsMatchTheReference() {
        needGpu();
        float[] w = randomSparse(40, 50, 1.0, 3);
        assertTrue(runner.denseFp32("t", w, 40, 50, 24).relativeError() < 1e-5);
        assertTrue(runner.denseF16("t", w, 40, 50, 20).relativeError() < 2e-3, "fp16 inputs, fp32 accumulation");
    }

    @Test
    void sparse24MatchesTheReference() {
        needGpu();
        Assumptions.assumeTrue(runner.device().hasSparseTensorCores(), "GPU older than sm_80: no mma.sp");
        float[] w = randomSparse(64, 96, 1.0, 4);
        GpuMeasurement m = runner.sparse24("t", w, 64, 96, 16);
        assertTrue(m.relativeError() < 2e-3, "error " + m.relativeError());
        assertEquals(64L * 96 / 2, m.nnz());
    }
}
