package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The gap parts add up to predicted minus ideal, for every format on a GPU and a CPU spec. */
class GapBreakdownTest {
    @Test
    void partsSumToPredictedMinusIdealForEveryFormat() {
        Random rnd = new Random(7);
        for (String specName : new String[] {"a100-80gb", "epyc-zen5-2c", "h100-sxm"}) {
            HardwareSpec spec = HardwareSpecs.load(specName);
            PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
            for (int trial = 0; trial < 4; trial++) {
                int m = 64 + rnd.nextInt(200);
                int k = 4 * (16 + rnd.nextInt(100));
                float[] a = new float[m * k];
                double density = 0.05 + 0.9 * rnd.nextDouble();
                for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = (float) rnd.nextGaussian();
                Workload w = Workloads.of("random", MatrixScan.of(m, k, a), 1 + rnd.nextInt(512), Simulation.defaultDType(spec));
                for (String f : FormatModels.names()) {
                    FormatModel format = FormatModels.byName(f);
                    if (format.unsupported(w, spec) != null) continue;
                    LayerEstimate e = model.estimate(w, format);
                    GapBreakdown g = e.gap();
                    assertEquals(e.predictedSeconds(), g.predictedSeconds(), 1e-12 * e.predictedSeconds() + 1e-18, specName + " " + f);
                    assertEquals(e.denseSeconds() / e.theoreticalSpeedup(), g.idealSeconds(), 1e-9 * e.denseSeconds());
                    assertTrue(g.indexMetadataSeconds() >= -1e-15, f + " index bytes never make it faster");
                    assertTrue(g.gatherScatterMissSeconds() >= -1e-15, f + " misses never make it faster");
                    assertTrue(g.loadImbalanceSeconds() >= -1e-15, f);
                    assertTrue(g.fixedOverheadSeconds() >= 0, f);
                    if (f.equals("dense")) {
                        assertEquals(0, g.indexMetadataSeconds() + g.gatherScatterMissSeconds() + g.loadImbalanceSeconds()
                                + g.fixedOverheadSeconds(), 0, f + ": the dense kernel's gap is all roof (it multiplies the zeros)");
                        assertTrue(g.roofSeconds() >= -1e-15, f);
                    } else {
                        assertTrue(g.fixedOverheadSeconds() > 0, f + ": a sparse kernel's fixed costs exceed dense's scaled launch");
                    }
                }
            }
        }
    }

    @Test
    void denseOnADenseLayerHasNoGap() {
        HardwareSpec spec = HardwareSpecs.load("a100-80gb");
        LayerEstimate e = new PerfModel(spec, TrafficModel.ANALYTICAL)
                .estimate(Workload.dense("d", 1024, 1024, 1024, DType.F16), FormatModels.byName("dense"));
        assertEquals(1.0, e.speedup(), 1e-12);
        assertEquals(1.0, e.theoreticalSpeedup(), 1e-12);
        assertEquals(e.predictedSeconds(), e.gap().idealSeconds(), 1e-15);
        for (double part : e.gap().parts()) assertEquals(0, part, 0, "a dense layer in dense has no gap part");
        assertEquals(-1, e.gap().largestPart());
    }

    @Test
    void aSparseCandidateOnADenseLayerShowsItsCostsAsPositiveParts() {
        HardwareSpec spec = HardwareSpecs.load("a100-80gb");
        Random rnd = new Random(3);
        float[] a = new float[384 * 384];
        for (int i = 0; i < a.length; i++) a[i] = 1 + rnd.nextFloat();
        Workload w = Workloads.of("dense layer", MatrixScan.of(384, 384, a), 128, DType.F16);
        GapBreakdown g = new PerfModel(spec, TrafficModel.ANALYTICAL).estimate(w, FormatModels.byName("csr")).gap();
        assertTrue(g.fixedOverheadSeconds() > 0 && g.gapSeconds() > 0, "csr is slower than dense here");
        assertTrue(g.largestPart() >= 0);
        assertTrue(g.parts()[g.largestPart()] > 0);
    }
    @Test
    void aNegativePartIsNettedAgainstTheOthersInOrderKeepingTheSum() {
        double[] p = {-3, 1, 2, 2.5, 4}; // roof, index, misses, imbalance, fixed
        GapBreakdown.netNegativeParts(p);
        assertEquals(0, p[0], 0);
        assertEquals(0, p[3], 0, "the credit goes first against the kernel's own imbalance");
        assertEquals(3.5, p[4], 1e-12, "then against its fixed overheads");
        assertEquals(1, p[1], 0);
        assertEquals(2, p[2], 0);
        double[] below = {-10, 1, 1, 1, 1}; // a prediction under the ideal stays visible
        GapBreakdown.netNegativeParts(below);
        assertEquals(-6, below[0], 1e-12);
        assertEquals(0, below[1] + below[2] + below[3] + below[4], 0);
    }
}
