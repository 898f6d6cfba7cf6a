package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The dense GPU check replays the plan's own tile schedule through the L2, sampled along K with the
 * L2 scaled alike: its answer does not move with the access budget, and where A, B and C fit the
 * L2 it is the compulsory traffic the analytical plan gives.
 */
class GpuTileReplayTest {
    private static Workload dense(int m, int k, long n) {
        float[] a = new float[m * k];
        Arrays.fill(a, 1f);
        MatrixView view = MatrixView.of(m, k, a);
        return new Workload("w", MatrixScan.of(view), n, DType.F16, view);
    }

    @Test
    void theDisagreementDoesNotMoveWithTheBudget() {
        // Shapes past the L2 (several rounds) and inside it, A100 (Identity8 swizzle, waves) and H100 (persistent raster).
        Object[][] cases = {{"a100-80gb", 4096, 4096, 512L}, {"h100-sxm", 4096, 4096, 2048L}, {"a100-80gb", 1024, 1024, 16L}};
        for (Object[] c : cases) {
            GpuSpec g = (GpuSpec) HardwareSpecs.load((String) c[0]);
            Workload w = dense((int) c[1], (int) c[2], (long) c[3]);
            TrafficCheck whole = GpuTileReplay.check(w, g, Long.MAX_VALUE / 4);
            assertTrue(whole.sample().contains("all k-steps"), whole.sample());
            for (long budget : new long[] {50_000, 300_000, 1_000_000}) {
                TrafficCheck sampled = GpuTileReplay.check(w, g, budget);
                String what = c[0] + " " + w.rows() + "x" + w.cols() + " N " + w.denseColumns() + " budget " + budget + ": " + sampled.sample();
                assertEquals(whole.replayBytes()[0], sampled.replayBytes()[0], 1e-6 * whole.replayBytes()[0], what + " L2 requests");
                assertEquals(whole.replayBytes()[1], sampled.replayBytes()[1], 0.05 * whole.replayBytes()[1], what + " DRAM");
                assertEquals(whole.relativeDifference(1), sampled.relativeDifference(1), 0.05, what);
            }
        }
    }

    @Test
    void whatFitsTheL2IsReadOnceAsThePlanSays() {
        GpuSpec g = (GpuSpec) HardwareSpecs.load("a100-80gb");
        for (long n : new long[] {1, 128, 512}) {
            TrafficCheck c = GpuTileReplay.check(dense(1024, 1024, n), g, 300_000);
            // The L2 requests are the schedule's strips by construction; DRAM is every byte once, C written once
            // (the split-K partials' dirty lines left at the end are dead workspace, not this kernel's traffic).
            assertEquals(c.analyticalBytes()[0], c.replayBytes()[0], 1e-6 * c.analyticalBytes()[0], "L2, N " + n);
            double compulsory = 2.0 * (1024 * 1024 + 1024 * n + 1024 * n);
            assertEquals(compulsory, c.replayBytes()[1], 0.01 * compulsory, "DRAM, N " + n + ": " + c.sample());
        }
    }

    @Test
    void anOperandEveryRoundReadsIsReadOnceWhereTheReplayKeepsIt() {
        // The raster reads every strip of one operand each round (H100 along N; A100 with N in one band): the plan
        // reads it once when it, a round's other strips and outputs fit the L2, as LRU in the two partitions does.
        Object[][] cases = {{"h100-sxm", 4096, 4096, 2048L}, {"h100-sxm", 5632, 2048, 2048L}, {"h100-sxm", 11008, 4096, 2048L},
                {"a100-80gb", 11008, 4096, 512L}};
        for (Object[] c : cases) {
            GpuSpec g = (GpuSpec) HardwareSpecs.load((String) c[0]);
            TrafficCheck check = GpuTileReplay.check(dense((int) c[1], (int) c[2], (long) c[3]), g, 300_000);
            assertTrue(Math.abs(check.relativeDifference(1)) <= TrafficCheck.TOLERANCE, c[0] + " " + check.sample() + ": DRAM "
                    + check.relativeDifference(1));
        }
    }

    @Test
    void theCheckNamesTheScheduleAndTheSample() {
        GpuSpec g = (GpuSpec) HardwareSpecs.load("h100-sxm");
        TrafficCheck c = GpuReplayCheck.of(dense(4096, 4096, 2048), "dense", g, 300_000);
        assertTrue(c.sample().startsWith("4096x4096x2048 ("), c.sample());
        assertTrue(c.sample().contains(" CTAs, ") && c.sample().contains(" of 64 k-steps, L2 "), c.sample());
    }
}
