package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.util.DType;
import org.junit.jupiter.api.Test;

class ScratchTest {
    @Test
    void print() {
        PerfModel pm = new PerfModel(HardwareSpecs.load("a100-80gb"), TrafficModel.ANALYTICAL);
        Workload big = Workload.uniformSparse("lin", 3072, 10240, 3072, DType.F16, 0.5, true);
        show(pm, big, "2:4");
        show(pm, big, "dense");
        for (int bs : new int[] {4, 16, 64, 256}) {
            Workload b = Workload.uniformSparse("bert", 3072, 768, bs * 128L, DType.F16, 0.5, true);
            show(pm, b, "2:4");
        }
        for (double s : new double[] {0.5, 0.6, 0.7, 0.8, 0.9, 0.95}) {
            Workload l = Workload.uniformSparse("lstm", 8192, 2048, 128, DType.F32, 1 - s, false);
            show(pm, l, "csr");
        }
    }

    private static void show(PerfModel pm, Workload w, String f) {
        LayerEstimate e = pm.estimate(w, FormatModels.byName(f));
        System.out.printf("%s %s N=%d dense %.3f ms %s (%s), %s %.3f ms %s imb %.2f speedup %.2f gap %s%n", w.name(), f, w.denseColumns(),
                e.denseSeconds() * 1e3, e.dense().bottleneck(), e.dense().plan().balance().schedule(), f, e.predictedSeconds() * 1e3,
                e.predicted().bottleneck(), e.predicted().imbalanceFactor(), e.speedup(), java.util.Arrays.toString(e.gap().parts()));
        System.out.println("   levels " + java.util.Arrays.toString(e.predicted().levelSeconds()) + " compute " + e.predicted().computeSeconds()
                + " miss " + java.util.Arrays.toString(e.predicted().traffic().missRates()));
    }
}
