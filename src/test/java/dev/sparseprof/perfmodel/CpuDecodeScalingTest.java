package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * How the CPU kernels' costs grow with N, as the kernels do the work: the N:M kernel decodes a
 * row's columns once, whatever N (kernel.NmSpmm), then runs the CSR body per column tile; BSR's
 * register tiles run at the dense GEMM's efficiency (kernel.BlockRowTiles); every sparse kernel
 * first copies B to its aligned place (kernel.SpmmPlan).
 */
class CpuDecodeScalingTest {
    private static final String SPEC = "version: 1\npreset: epyc-zen5-2c\noverheads:\n  launch: 0us\n  forkJoin: 0us\n  perRow: 0cycles\n  gather: 0cycles\n"
            + "  denseEfficiency: 0.5\n  perNnzByFormat:\n    2:4: 10cycles\n    csr: 1cycles\n";

    private static Workload twoFour(int n) {
        Random rnd = new Random(5);
        float[] a = new float[64 * 128];
        for (int i = 0; i < a.length; i++) a[i] = i % 4 == 1 || i % 4 == 2 ? 1 + rnd.nextFloat() : 0; // 2 of every 4 kept
        return Workloads.of("w", MatrixScan.of(64, 128, a), n, DType.F32);
    }

    @Test
    void theNmDecodeIsPerSlotAndTheCsrBodyPerColumnTile() {
        CpuSpec spec = (CpuSpec) HardwareSpecs.parse("s.yaml", SPEC);
        double slots = 64 * 64;
        double perCycle = 1 / (spec.cores() * spec.clockHertz());
        for (int n : new int[] {32, 128, 256}) {
            int tiles = Machine.columnTiles(spec, twoFour(n));
            double overhead = FormatModels.byName("2:4").plan(twoFour(n), spec).overheadSeconds();
            assertEquals((slots * 10 + slots * tiles * 1) * perCycle + Machine.bCopySeconds(spec, twoFour(n), "2:4"), overhead, 1e-15, "N = " + n);
        }
    }

    @Test
    void bCopyRunsAtTheFirstLevelThatHoldsItAndNotOnAGpu() {
        CpuSpec spec = (CpuSpec) HardwareSpecs.parse("s.yaml", SPEC); // L1 48 KiB per core at 947 GB/s, L2 1 MiB per core at 473 GB/s
        double small = 2 * 2.0 * 128 * 32 * Float.BYTES; // 2 x 32 KiB: B and each core's copy fit the two cores' L1s
        assertEquals(small / 947e9, Machine.bCopySeconds(spec, twoFour(32), "2:4"), 1e-15);
        double wide = 2 * 2.0 * 128 * 1024 * Float.BYTES; // 2 x 1 MiB: the L2s
        assertEquals(wide / 473e9, Machine.bCopySeconds(spec, twoFour(1024), "2:4"), 1e-15);
        assertEquals(0, Machine.bCopySeconds(HardwareSpecs.load("a100-80gb"), twoFour(32), "2:4"));
    }

    @Test
    void bsrFmasRunAtTheDenseEfficiencyOnACpuOnly() {
        CpuSpec spec = (CpuSpec) HardwareSpecs.parse("s.yaml", SPEC);
        assertEquals(0.5, FormatModels.byName("bsr4x4").plan(twoFour(32), spec).computeEfficiency(), 0);
        assertEquals(1, FormatModels.byName("csr").plan(twoFour(32), spec).computeEfficiency(), 0);
        assertEquals(1, FormatModels.byName("bsr4x4").plan(twoFour(32), HardwareSpecs.load("a100-80gb")).computeEfficiency(), 0);
    }
}
