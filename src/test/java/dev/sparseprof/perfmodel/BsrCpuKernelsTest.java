package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.DType;
import org.junit.jupiter.api.Test;

/**
 * The CPU model prices only block shapes a CPU kernel runs: a tensor-core block shape (16x16 and
 * up) on a CPU has no prediction (it once priced bsr64x64 on a fully dense MiniLM layer at 1.87x
 * over dense, above the FLOP bound, with nothing to run it), while a GPU still takes it.
 */
class BsrCpuKernelsTest {
    /** A fully dense 384x384 layer with block counts for {@code name}'s block shape, N = 32. */
    private static Workload dense(String name, DType dtype) {
        String[] rc = name.substring("bsr".length()).split("x");
        BlockShape shape = new BlockShape(Integer.parseInt(rc[0]), Integer.parseInt(rc[1]));
        return Workload.blockSparse("w", 384, 384, 32, dtype, shape, 1.0);
    }

    @Test
    void cpuRefusesBlockShapesWithoutAKernel() {
        HardwareSpec cpu = HardwareSpecs.load("epyc-zen5-2c");
        for (String name : FormatModels.names()) {
            if (!name.startsWith("bsr")) continue;
            String why = FormatModels.byName(name).unsupported(dense(name, DType.F32), cpu);
            if (Kernels.names().contains(name)) {
                assertNull(why, name);
            } else {
                assertNotNull(why, name);
                assertTrue(why.startsWith("no CPU kernel runs " + name), why);
            }
        }
        assertNull(FormatModels.byName("bsr4x4").unsupported(dense("bsr4x4", DType.F32), cpu));
    }

    @Test
    void gpuKeepsTheTensorCoreBlockShapes() {
        HardwareSpec gpu = HardwareSpecs.load("a100-80gb");
        assertEquals(null, FormatModels.byName("bsr64x64").unsupported(dense("bsr64x64", DType.F16), gpu));
    }
}
