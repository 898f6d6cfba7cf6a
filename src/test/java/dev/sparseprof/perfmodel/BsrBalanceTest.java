package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import org.junit.jupiter.api.Test;

/** BSR's load balance comes from its real block rows. */
class BsrBalanceTest {
    @Test
    void blocksCrowdedIntoTheTopRowsMakeTheSlowestCoreCarryThem() {
        HardwareSpec cpu = HardwareSpecs.load("epyc-zen5-2c");
        int m = 64;
        int k = 256;
        float[] a = new float[m * k];
        // The first block row (4 rows) is full, each other one holds one value.
        for (int i = 0; i < 4; i++) for (int j = 0; j < k; j++) a[i * k + j] = 1;
        for (int i = 4; i < m; i += 4) a[i * k] = 1;
        MatrixView view = MatrixView.of(m, k, a);
        Workload w = new Workload("skewed", MatrixScan.of(view), 16, DType.F32, view);
        KernelPlan plan = FormatModels.byName("bsr4x4").plan(w, cpu);
        // 64 blocks in block row 0 + 15 block rows x 1 = 79 blocks; work per block row = blocks + 1
        // (one column tile): 65 and 15 x 2 = 30, so the core holding block row 0 has 65 of a mean 47.5.
        assertEquals(79, w.blocks(BlockShape.parse("4x4")).nonEmptyBlocks());
        assertEquals(65 / 47.5, plan.balance().factor(), 1e-9);
        // The scan's per-band counts carry the skew: statistics alone (no matrix) give the same balance.
        Workload statsOnly = Workloads.of("skewed", MatrixScan.of(view), 16, DType.F32);
        assertEquals(65 / 47.5, FormatModels.byName("bsr4x4").plan(statsOnly, cpu).balance().factor(), 1e-9, "from the scan's counts");
        // Synthetic statistics hold totals only: an even spread.
        Workload uniform = Workload.uniformSparse("u", m, k, 16, DType.F32, 0.1, false);
        assertEquals(1.0, FormatModels.byName("bsr4x4").plan(uniform, cpu).balance().factor(), 0.1, "even spread without per-band counts");
    }

    @Test
    void blockSparseWorkloadsHoldWholeBlocksSpreadEvenly() {
        Workload w = Workload.blockSparse("b", 128, 256, 64, DType.F16, new BlockShape(32, 32), 0.3);
        BlockDensity b = w.blocks(new BlockShape(32, 32));
        assertEquals(Math.round(0.3 * 8 * 4), b.nonEmptyBlocks());
        assertEquals(b.nonEmptyBlocks() * 1024, w.nnz());
        assertEquals(b.nonEmptyBlocks(), b.perBlockRow().sum());
        assertTrue(b.perBlockRow().summary().max() - b.perBlockRow().summary().min() <= 1);
        assertEquals(null, w.blocks(BlockShape.B4X4), "no other shape counted");
        // On the A100 spec, 32 x 32 blocks run on the tensor cores, 4 x 4 ones on CUDA cores.
        HardwareSpec a100 = HardwareSpecs.load("a100-80gb");
        assertEquals(ComputeUnit.TENSOR, FormatModels.byName("bsr32x32").plan(w, a100).unit());
    }
}
