package dev.sparseprof.perfmodel.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.Lengths;
import dev.sparseprof.util.DType;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Sputnik's and the row split's mappings, and BSR on tensor cores, on the A100 spec. */
class GpuSpmmMappingTest {
    private static final GpuSpec A100 = (GpuSpec) HardwareSpecs.load("a100-80gb");

    private static Lengths even(int rows, int length) {
        int[] a = new int[rows];
        Arrays.fill(a, length);
        return Lengths.of(a);
    }

    @Test
    void sputnikCoversSmallNWithASubwarpAndTheRowSplitIdlesLanes() {
        RowSplitSpmm.Mapping s = RowSplitSpmm.map(RowSplitSpmm.Variant.SPUTNIK, A100, even(1024, 100), 16, 2);
        assertEquals(2, s.lanesPerTask(), "16 fp16 columns: 2 lanes of 8-element vector loads");
        assertEquals(1.0, s.laneUtilisation(), 0);
        RowSplitSpmm.Mapping r = RowSplitSpmm.map(RowSplitSpmm.Variant.ROW_SPLIT, A100, even(1024, 100), 16, 2);
        assertEquals(32, r.lanesPerTask());
        assertEquals(0.5, r.laneUtilisation(), 0, "16 of a warp's 32 lanes");
        // A scalar warp load of 16 x 2 bytes still costs one L1 wavefront (128 B/clk/SM on the A100 spec).
        double wavefront = A100.l1().bandwidthBytesPerSecond() / (A100.sms() * A100.clockHertz());
        assertEquals(wavefront, r.l1BytesPerGather(), 1e-9);
        assertEquals(wavefront, s.l1BytesPerGather(), 1e-9, "a 32-byte sector is under a wavefront too");
        assertEquals(2 * wavefront, r.l1BroadcastBytesPerNonZero(), 1e-9);
        assertEquals(0, s.l1BroadcastBytesPerNonZero(), 0);
        // Wide N: Sputnik's vector loads fill whole wavefronts.
        RowSplitSpmm.Mapping wide = RowSplitSpmm.map(RowSplitSpmm.Variant.SPUTNIK, A100, even(64, 10), 2048, 2);
        assertEquals(256, wide.columnTile());
        assertEquals(8, wide.columnTiles());
        assertEquals(512, wide.l1BytesPerGather(), 1e-9);
    }

    @Test
    void theSwizzleBalancesSkewedRowsAndTheLongestChainBoundsTheKernel() {
        int[] rows = new int[4096];
        for (int i = 0; i < rows.length; i++) rows[i] = i >= rows.length - 64 ? 4000 : 10; // a few long rows last
        Lengths skewed = Lengths.of(rows);
        // The same tasks dealt longest first (Sputnik's swizzle) and in order: the long rows dealt last leave a tail.
        double swizzled = RowSplitSpmm.schedule(RowSplitSpmm.Variant.SPUTNIK, skewed, 2, A100.sms()).factor();
        double natural = RowSplitSpmm.schedule(RowSplitSpmm.Variant.ROW_SPLIT, skewed, 2, A100.sms()).factor();
        assertTrue(swizzled < natural, swizzled + " vs " + natural);
        double chain = RowSplitSpmm.map(RowSplitSpmm.Variant.SPUTNIK, A100, skewed, 512, 2).latencySeconds();
        assertTrue(chain >= Math.ceil(4000 / 32.0) * RowSplitSpmm.chunkSeconds(A100), "the longest row's chain: " + chain);
        int[] order = RowSplitSpmm.longestFirst(Lengths.of(3, 9, 1, 9));
        assertEquals(9, new int[] {3, 9, 1, 9}[order[0]]);
        assertEquals(1, new int[] {3, 9, 1, 9}[order[3]]);
    }

    @Test
    void bigBlocksBringMoreMathPerByteAndNoProgramBeatsItsOwnSteps() {
        double peak = A100.peaks().flopsPerSecond(ComputeUnit.TENSOR, DType.F16);
        double[] perFlop = new double[3];
        int i = 0;
        for (int b : new int[] {16, 32, 64}) {
            Lengths blocks = even(4096 / b, 4096 / b / 2);
            BlockTensorSpmm.Mapping m = BlockTensorSpmm.map(A100, BlockTensorSpmm.Dot.TENSOR, b, b, blocks, 4096, 2, peak);
            assertEquals(b, m.tileColumns(), "an R x R output tile, as the PyTorch kernel");
            assertTrue(m.longestProgramSeconds() >= 4096 / b / 2 * m.stepSeconds(), "a program runs its block row's steps");
            assertTrue(m.busiestSmSeconds() >= m.longestProgramSeconds() - 1e-15);
            perFlop[i++] = m.stepSeconds() / (2.0 * b * b * m.tileColumns());
        }
        assertTrue(perFlop[0] > perFlop[1] && perFlop[1] > perFlop[2], Arrays.toString(perFlop));
        BlockTensorSpmm.Mapping narrow = BlockTensorSpmm.map(A100, BlockTensorSpmm.Dot.TENSOR, 16, 16, even(4, 4), 8, 2, peak);
        assertEquals(16, narrow.tileColumns(), "never under a tensor-core fragment");
    }
}
