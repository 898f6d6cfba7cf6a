package dev.sparseprof.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuTracesTest {
    private static final ArrayLayout LAYOUT = ArrayLayout.sequential(0, 256, Map.of(ArrayRole.VALUES, 1L << 20,
            ArrayRole.COLUMN_INDICES, 1L << 20, ArrayRole.ROW_POINTERS, 1L << 16, ArrayRole.DENSE_A, 1L << 20, ArrayRole.B_GATHER, 1L << 20), 4);

    @Test
    void csrWarpsCoalesceIntoSectorsAndBlocksGoRoundRobin() {
        int m = 20;
        int k = 30;
        int n = 64; // two 32-lane tiles per row
        CsrMatrix a = CsrMatrix.from(MatrixView.of(m, k, RandomMatrices.sparse(m, k, 0.3, 2)));
        GpuGrid grid = new GpuGrid(3, 2, 32);
        CountingSink[] sms = sinks(3);
        GpuTraces.csrRowSplit(RowSlices.of(a), n, grid, LAYOUT, sms);
        long values = 0;
        long bSectors = 0;
        long cSectors = 0;
        for (CountingSink s : sms) {
            values += s.reads(ArrayRole.VALUES);
            bSectors += s.reads(ArrayRole.B_GATHER);
            cSectors += s.writes(ArrayRole.C_SCATTER);
        }
        assertEquals(2L * a.nnz(), values, "one broadcast sector per entry and tile");
        assertEquals(2L * a.nnz() * 4, bSectors, "32 aligned floats = 4 sectors");
        assertEquals(2L * m * 4, cSectors);
        // 40 warps, 2 per block: 20 blocks round-robin over 3 SMs -> 7, 7, 6 blocks
        assertEquals(7L * 2 * 4, sms[0].writes(ArrayRole.C_SCATTER));
        assertEquals(7L * 2 * 4, sms[1].writes(ArrayRole.C_SCATTER));
        assertEquals(6L * 2 * 4, sms[2].writes(ArrayRole.C_SCATTER));
    }

    @Test
    void denseTilesLoadATileAndBTilePerKStep() {
        GpuGrid grid = new GpuGrid(2, 4, 32);
        CountingSink[] sms = sinks(2);
        GpuTraces.denseTiled(64, 96, 32, grid, LAYOUT, sms);
        // 2 C tiles (one per SM), 3 K steps, each: 32 A rows x 4 sectors + 32 B rows x 4 sectors
        for (CountingSink s : sms) {
            assertEquals(3L * 32 * 4, s.reads(ArrayRole.DENSE_A));
            assertEquals(3L * 32 * 4, s.reads(ArrayRole.B_GATHER));
            assertEquals(32L * 4, s.writes(ArrayRole.C_SCATTER));
        }
    }

    @Test
    void unalignedSegmentsTouchOneMoreSector() {
        CountingSink s = new CountingSink();
        GpuTraces.coalesced(s, AccessKind.READ, 16, 128, 32, ArrayRole.B_GATHER);
        assertEquals(5, s.reads(ArrayRole.B_GATHER));
    }

    private static CountingSink[] sinks(int count) {
        CountingSink[] out = new CountingSink[count];
        for (int i = 0; i < count; i++) out[i] = new CountingSink();
        return out;
    }
}
