package dev.sparseprof.perfmodel.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** csr's loop counts follow the kernel's column passes (kernel.CsrSpmm.passColumns on the spec's L2). */
class CsrPassCountsTest {
    private static final long L2 = 1L << 20;

    @Test
    void bInHalfOfL2IsOneRowBody() {
        LoopCounts c = LoopNests.of("csr", 10, 768, 128, 100, null, 0, 16, L2);
        assertEquals(100, c.block8Entries());
        assertEquals(10, c.rowBlocks());
        assertEquals(c, LoopNests.of("csr", 10, 768, 128, 100, null, 0, 16));
    }

    @Test
    void bPastL2RunsTwoVectorPassesInTheTightLoop() {
        // K = 3072, N = 128 at 16 lanes: B 1.5 MiB, four passes of 32 columns
        LoopCounts c = LoopNests.of("csr", 10, 3072, 128, 100, null, 0, 16, L2);
        assertEquals(0, c.block8Entries());
        assertEquals(400, c.block2Entries());
        assertEquals(40, c.wholeRows());
        assertEquals(0, c.rowBlocks());
        // N = 130: the 2 columns past the last pass are one more row body, a masked block of the
        // general path (its one-vector rate, split1)
        LoopCounts tail = LoopNests.of("csr", 10, 3072, 130, 100, null, 0, 16, L2);
        assertEquals(400, tail.block2Entries());
        assertEquals(100, tail.split1Entries());
        assertEquals(10, tail.rowBlocks());
    }

    @Test
    void aTwoVectorPanelPastL2RunsOneVectorPasses() {
        LoopCounts c = LoopNests.of("csr", 10, 16384, 64, 100, null, 0, 16, L2);
        assertEquals(400, c.oneVectorEntries());
        assertEquals(40, c.wholeRows());
    }
}
