package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import org.junit.jupiter.api.Test;

/**
 * A GEMM that runs with probability r in a batch (a routed expert in a small batch) costs r of a
 * run, every time and byte alike, on every bundled spec (GPU roofline and CPU ECM paths), so its
 * speedups and gap shares are those of a run.
 */
class RoutedRunsTest {
    @Test
    void aGemmThatRunsWithProbabilityRCostsRTimesARun() {
        float[] a = new float[256 * 512];
        for (int i = 0; i < a.length; i++) a[i] = i % 3 == 0 ? 0 : 1 + (i % 7);
        MatrixView view = MatrixView.of(256, 512, a);
        Workload once = new Workload("expert", MatrixScan.of(view), 1, DType.F16, view);
        Workload quarter = once.withRuns(0.25);
        for (String preset : HardwareSpecs.presetNames()) {
            HardwareSpec spec = HardwareSpecs.load(preset);
            PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
            for (String f : new String[] {"dense", "csr"}) {
                LayerEstimate one = model.estimate(once, FormatModels.byName(f));
                LayerEstimate q = model.estimate(quarter, FormatModels.byName(f));
                String where = preset + " " + f;
                assertEquals(0.25 * one.predictedSeconds(), q.predictedSeconds(), 1e-12 * one.predictedSeconds(), where);
                assertEquals(0.25 * one.denseSeconds(), q.denseSeconds(), 1e-12 * one.denseSeconds(), where);
                assertEquals(0.25 * one.predicted().traffic().dramBytes(), q.predicted().traffic().dramBytes(), 1e-9, where);
                assertEquals(one.speedup(), q.speedup(), 1e-9, where);
                assertEquals(one.predicted().arithmeticIntensity(0), q.predicted().arithmeticIntensity(0), 1e-9, where + ": intensity of a run");
            }
        }
    }
}
