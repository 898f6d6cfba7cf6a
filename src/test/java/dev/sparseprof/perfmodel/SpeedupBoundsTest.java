package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Physical bounds over a grid of shapes and batches on every bundled GPU spec, with the default
 * (memsim-checked analytical) traffic model: 2:4 never beats 2x the layer's one dense baseline, the gap parts the
 * definition makes non-negative are, and a simulated dense GEMM never moves more DRAM bytes than
 * its compulsory traffic (each distinct byte once, C written back once) when its footprint fits the L2.
 */
class SpeedupBoundsTest {
    private static final int[][] SHAPES = {{64, 128}, {384, 384}, {256, 1024}};
    private static final int[] BATCHES = {1, 32, 512, 4096};
    private static final double EPSILON = 1e-6;

    /** Two random kept slots of every group of 4 along K. */
    private static Workload twoFour(int m, int k, int n, long seed) {
        Random rnd = new Random(seed);
        float[] a = new float[m * k];
        for (int r = 0; r < m; r++) {
            for (int g = 0; g < k; g += 4) {
                int x = rnd.nextInt(4);
                int y = (x + 1 + rnd.nextInt(3)) % 4;
                a[r * k + g + x] = 1 + rnd.nextFloat();
                a[r * k + g + y] = 1 + rnd.nextFloat();
            }
        }
        MatrixView view = MatrixView.of(m, k, a);
        return new Workload("g", MatrixScan.of(view), n, DType.F16, view);
    }

    @Test
    void twoFourStaysWithinTwiceDenseAndGapPartsAreNonNegative() {
        for (String preset : HardwareSpecs.presetNames()) {
            HardwareSpec spec = HardwareSpecs.load(preset);
            if (!(spec instanceof GpuSpec gpu)) continue;
            PerfModel model = new PerfModel(spec, SimulatedTraffic.checked(40_000));
            for (int[] shape : SHAPES) {
                for (int batch : BATCHES) {
                    Workload w = twoFour(shape[0], shape[1], batch, shape[0] + batch);
                    String where = preset + " " + shape[0] + "x" + shape[1] + "x" + batch;
                    LayerEstimate e = model.estimate(w, FormatModels.byName("2:4"));
                    assertTrue(e.speedup() <= 2.0 * (1 + EPSILON), where + ": 2:4 speedup " + e.speedup());
                    assertTrue(e.predicted().traffic().simulated() == e.dense().traffic().simulated(),
                            where + ": one traffic model for both sides");
                    for (String f : new String[] {"2:4", "csr"}) {
                        GapBreakdown g = model.estimate(w, FormatModels.byName(f)).gap();
                        double[] parts = g.parts();
                        for (int i = 1; i < parts.length; i++) {
                            assertTrue(parts[i] >= -1e-15, where + " " + f + ": " + GapBreakdown.PART_NAMES[i] + " " + parts[i]);
                        }
                    }
                    Traffic dense = e.dense().traffic().simulated() ? e.dense().traffic()
                            : model.estimate(w, FormatModels.byName("dense")).predicted().traffic();
                    double a = 2.0 * w.rows() * w.cols();
                    double b = 2.0 * w.cols() * batch;
                    double c = 2.0 * w.rows() * batch;
                    if (a + b + c <= gpu.l2().sizeBytes()) {
                        assertTrue(dense.dramBytes() <= (a + b + 2 * c) * (1 + EPSILON),
                                where + ": dense DRAM " + dense.dramBytes() + " B over the compulsory " + (a + b + 2 * c) + " (" + dense.source() + ")");
                    }
                }
            }
        }
    }
}
