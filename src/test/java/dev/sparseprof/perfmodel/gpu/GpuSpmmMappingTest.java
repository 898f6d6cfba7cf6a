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

    @Test
    void oneStageMakesAProgramsStepItsPhasesInSeriesAndRegistersBoundTheResidents() {
        double peak = A100.peaks().flopsPerSecond(ComputeUnit.TENSOR, DType.F16);
        BlockTensorSpmm.Mapping m = BlockTensorSpmm.map(A100, BlockTensorSpmm.Dot.TENSOR, 64, 64, even(64, 32), 4096, 2, peak);
        // 64 x 64 fp16, 4 warps: accumulator 64*64*4 B / 128 threads = 32 registers, the larger of the loaded
        // tiles (16 KB / 128 / 4 = 32) and a warp's operand fragments (8 KB / 32 / 4 = 64), plus 64: 160;
        // 65536 / (160 x 128) = 3 programs per SM (warps would allow 16, one 16 KB stage 10).
        assertEquals(3, m.resident());
        // num_stages=1: the residents overlap their latencies but queue for the SM's SRAM, L2 port and tensor
        // pipe, so the SM's step lies above one program's serial step over the three of them (and above the
        // busiest resource: two SRAM passes and the operand reads, 64 KB at 128 B/clk = 512 clocks).
        assertTrue(m.programStepSeconds() > 2 * m.stepSeconds(), m.toString());
        assertTrue(m.stepSeconds() > m.programStepSeconds() / 3 * 1.05, m.toString());
        assertTrue(m.stepSeconds() > 512 / A100.clockHertz(), m.toString());
        double chain = (2 * A100.l2().latencyCycles() / A100.clockHertz()) + A100.dram().latencySeconds();
        assertTrue(m.programStepSeconds() > chain + 2.0 * 64 * 64 * 64 / (peak / A100.sms()), "the loads' chain and the math in series");
        // A program's own steps are serial: the longest program takes its block row's steps at the program's pace.
        assertTrue(m.longestProgramSeconds() >= 32 * m.programStepSeconds());
    }

    @Test
    void theFmaDotIsBoundByItsSharedMemoryOperandReadsForSmallBlocks() {
        double vector = A100.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F32);
        BlockTensorSpmm.Mapping fma = BlockTensorSpmm.map(A100, BlockTensorSpmm.Dot.FMA, 16, 16, even(256, 64), 4096, 4, vector);
        // 16 x 16 outputs over 128 threads: a 1 x 2 part each, 3 warp-wide shared loads per element of K
        // for 2 FMAs: 16 k x 4 warps x 3 wavefronts + the 2 KB loaded through the L1 and stored (one stage: no
        // cp.async), at 128 B per clock, over the math's 64 clocks.
        double wavefront = A100.l1().bandwidthBytesPerSecond() / (A100.sms() * A100.clockHertz());
        double shared = (16 * 4 * 3 * wavefront + 2 * 2048) / (A100.l1().bandwidthBytesPerSecond() / A100.sms());
        double math = 2.0 * 16 * 16 * 16 / (vector / A100.sms());
        assertTrue(shared > 3 * math, "the operand reads, not the FMAs, are the SM's busiest resource");
        // Registers: a double accumulator and the dot's fp32 result (256 x 12 B / 128 / 4 = 6), the whole-K operands
        // (3 x 16 fp32 = 48), plus 64: 118, so 65536 / (118 x 128) = 4 programs per SM, too few to cover one
        // program's serial step.
        assertEquals(4, fma.resident());
        assertTrue(fma.stepSeconds() > Math.max(shared, fma.programStepSeconds() / 4), "the residents queue for the SRAM: " + fma);
        assertEquals(1, BlockTensorSpmm.threadTile(2)[0]);
        assertEquals(2, BlockTensorSpmm.threadTile(2)[1]);
        assertEquals(4, BlockTensorSpmm.threadTile(32)[0]);
        assertEquals(8, BlockTensorSpmm.threadTile(32)[1]);
    }

    @Test
    void theFmaDotPaysItsDoubleAccumulateAndAFillCostsTheSmOneSlotsShare() {
        // float64 accumulate of a 64 x 64 tile per step: 4096 F2F at 16/clk/SM and 4096 DADD at 9.7 TFLOPS / 2 / 108 SMs.
        double clock = A100.clockHertz();
        double expected = 4096 / (16 * clock) + 4096 / (A100.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F64) / 2 / A100.sms());
        assertEquals(expected, BlockTensorSpmm.accumulateSeconds(A100, 4096), 1e-15);
        double vector = A100.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F32);
        BlockTensorSpmm.Mapping fma = BlockTensorSpmm.map(A100, BlockTensorSpmm.Dot.FMA, 64, 64, even(64, 64), 4096, 4, vector);
        assertTrue(fma.programStepSeconds() > 2.0 * 64 * 64 * 64 / (vector / A100.sms()) + expected, "the dot, then the accumulate, in series");
        // One block per block row: every program is mostly fill and drain, and each costs the SM its slot time
        // over the residents (the steps latency-bound), not nothing because another program is resident.
        double peak = A100.peaks().flopsPerSecond(ComputeUnit.TENSOR, DType.F16);
        BlockTensorSpmm.Mapping sparse = BlockTensorSpmm.map(A100, BlockTensorSpmm.Dot.TENSOR, 16, 16, even(256, 1), 4096, 2, peak);
        double slot = sparse.fillDrainSeconds() / sparse.resident() + sparse.stepSeconds();
        double programs = 256.0 * sparse.columnTiles();
        assertTrue(sparse.resident() >= 2);
        assertTrue(sparse.busiestSmSeconds() >= Math.floor(programs / A100.sms()) * slot, sparse.toString());
    }
}
