package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A layer pruned in memory keeps its fp32 copy only up to {@link Workloads#RETAINED_PRUNED_ELEMENTS}:
 * a pruned LLM's workloads then hold statistics, not 25 GB of copies, and their counts are the same.
 */
class PrunedWorkloadMemoryTest {
    private static GemmLayer layer(int rows, int cols) {
        float[] w = new float[rows * cols];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < w.length; i++) w[i] = (float) rnd.nextDouble(-1, 1);
        return new GemmLayer("l", "l.weight", LayerKind.LINEAR, rows, cols, 1, MatrixView.of(rows, cols, w));
    }

    @Test
    void aLargePrunedLayerKeepsItsStatisticsAndNoCopy() {
        int cols = (int) (Workloads.RETAINED_PRUNED_ELEMENTS / 1024) + 8; // just past the bound with 1024 rows
        Workload big = Workloads.of(layer(1024, cols), 1, DType.F32, Workloads.Pruning.TWO_FOUR, 0.5);
        assertNull(big.matrix(), "no fp32 copy kept past the bound");
        assertEquals(1024L * cols / 2, big.nnz(), "2:4 keeps half, the statistics stay");
        assertEquals(1024, big.rowLengths().count());
        Workload small = Workloads.of(layer(64, 64), 1, DType.F32, Workloads.Pruning.MAGNITUDE, 0.75);
        assertNotNull(small.matrix(), "a small layer keeps its copy for the sampled replays");
        assertEquals(64 * 64 / 4, small.nnz());
    }
}
