package dev.sparseprof.perfmodel.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** csr's loop counts follow the kernel's column passes (kernel.CsrSpmm.passColumns on the spec's L2). */
class CsrPassCountsTest {
    private static final long L2 = 1L << 20;

    @Test
    void bInHalfOfL2IsOneRowBody() {
        LoopCounts c = LoopNests.of("csr", 10, 768, 128, 100, null, 0, 16, L2);
        assertEquals(100, c.get(LoopBody.BLOCK8_ENTRY));
        assertEquals(10, c.get(LoopBody.ROW_BLOCK));
        assertEquals(c, LoopNests.of("csr", 10, 768, 128, 100, null, 0, 16));
    }

    @Test
    void bPastL2RunsTwoVectorPassesInTheTightLoop() {
        // K = 3072, N = 128 at 16 lanes: B 1.5 MiB, four passes of 32 columns
        LoopCounts c = LoopNests.of("csr", 10, 3072, 128, 100, null, 0, 16, L2);
        assertEquals(0, c.get(LoopBody.BLOCK8_ENTRY));
        assertEquals(400, c.get(LoopBody.BLOCK2_ENTRY));
        assertEquals(40, c.get(LoopBody.WHOLE_ROW));
        assertEquals(0, c.get(LoopBody.ROW_BLOCK));
        // N = 130: the 2 columns past the last pass are one more row body, a masked block of the
        // general path (its one-vector rate, split1)
        LoopCounts tail = LoopNests.of("csr", 10, 3072, 130, 100, null, 0, 16, L2);
        assertEquals(400, tail.get(LoopBody.BLOCK2_ENTRY));
        assertEquals(100, tail.get(LoopBody.SPLIT1_ENTRY));
        assertEquals(10, tail.get(LoopBody.ROW_BLOCK));
    }

    @Test
    void aTwoVectorPanelPastL2RunsOneVectorPasses() {
        LoopCounts c = LoopNests.of("csr", 10, 16384, 64, 100, null, 0, 16, L2);
        assertEquals(400, c.get(LoopBody.ONE_VECTOR_ENTRY));
        assertEquals(40, c.get(LoopBody.WHOLE_ROW));
    }
}
