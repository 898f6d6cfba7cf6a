package dev.sparseprof.kernel;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;

/**
 * GPU-style access streams for the memory simulator, one {@link TraceSink} per SM: what a warp's
 * global loads and stores become after coalescing, one access per distinct sector a warp-wide
 * instruction touches (a broadcast of one value by 32 lanes is one sector; 32 consecutive floats
 * are four 32-byte sectors when aligned, five when not).
 *
 * <p>Row-split CSR SpMM: one warp per (row, 32-column tile of N), lane l owning column
 * {@code tile*32 + l}; per entry the warp loads the value and the column index (broadcast), then
 * the B row segment (coalesced), and finally stores its C segment. Tiled dense GEMM: a thread block
 * computes a 32 x 32 C tile, stepping K by 32: per step it loads the A tile's 32 row segments and
 * the B tile's 32 row segments into shared memory (global traffic), computes from shared memory
 * (no global traffic), and finally stores the C tile. Blocks run to completion one after another
 * on their SM; warps of a block run one after another (no interleaving is modelled).
 */
public final class GpuTraces {
    /** Side of the dense GEMM's C tile and K step. */
    public static final int TILE = 32;

    private GpuTraces() {}

    /** The CSR row-split SpMM with B of {@code n} columns. */
    public static void csrRowSplit(RowSlices a, int n, GpuGrid grid, ArrayLayout layout, TraceSink[] perSm) {
        checkSinks(grid, perSm);
        int tiles = (n + GpuGrid.WARP_LANES - 1) / GpuGrid.WARP_LANES;
        long warps = (long) a.rows() * tiles;
        int[] starts = a.rowStarts();
        int[] cols = a.columnIndices();
        int sector = grid.sectorBytes();
        for (long w = 0; w < warps; w++) {
            TraceSink sink = perSm[(int) (w / grid.warpsPerBlock() % grid.sms())];
            int r = (int) (w / tiles);
            int c0 = (int) (w % tiles) * GpuGrid.WARP_LANES;
            int lanes = Math.min(GpuGrid.WARP_LANES, n - c0);
            if (a.rowPointersStored()) coalesced(sink, AccessKind.READ, layout.indexAddress(ArrayRole.ROW_POINTERS, r), 8, sector, ArrayRole.ROW_POINTERS);
            for (int j = starts[r]; j < starts[r + 1]; j++) {
                coalesced(sink, AccessKind.READ, layout.valueAddress(j), layout.valueBytes(), sector, ArrayRole.VALUES);
                coalesced(sink, AccessKind.READ, layout.indexAddress(ArrayRole.COLUMN_INDICES, j), layout.indexBytes(), sector, ArrayRole.COLUMN_INDICES);
                long b = layout.floatAddress(ArrayRole.B_GATHER, (long) cols[j] * n + c0);
                coalesced(sink, AccessKind.READ, b, lanes * Float.BYTES, sector, ArrayRole.B_GATHER);
            }
            coalesced(sink, AccessKind.WRITE, layout.floatAddress(ArrayRole.C_SCATTER, (long) r * n + c0), lanes * Float.BYTES, sector, ArrayRole.C_SCATTER);
        }
    }

    /** The tiled dense GEMM of an {@code m x k} A (row-major) and a {@code k x n} B. */
    public static void denseTiled(int m, int k, int n, GpuGrid grid, ArrayLayout layout, TraceSink[] perSm) {
        checkSinks(grid, perSm);
        int tilesN = (n + TILE - 1) / TILE;
        int tilesM = (m + TILE - 1) / TILE;
        int sector = grid.sectorBytes();
        for (long blk = 0; blk < (long) tilesM * tilesN; blk++) {
            TraceSink sink = perSm[(int) (blk % grid.sms())];
            int i0 = (int) (blk / tilesN) * TILE;
            int j0 = (int) (blk % tilesN) * TILE;
            int rows = Math.min(TILE, m - i0);
            int width = Math.min(TILE, n - j0);
            for (int k0 = 0; k0 < k; k0 += TILE) {
                int depth = Math.min(TILE, k - k0);
                for (int i = 0; i < rows; i++) {
                    coalesced(sink, AccessKind.READ, layout.floatAddress(ArrayRole.DENSE_A, (long) (i0 + i) * k + k0), depth * Float.BYTES, sector, ArrayRole.DENSE_A);
                }
                for (int kk = 0; kk < depth; kk++) {
                    coalesced(sink, AccessKind.READ, layout.floatAddress(ArrayRole.B_GATHER, (long) (k0 + kk) * n + j0), width * Float.BYTES, sector, ArrayRole.B_GATHER);
                }
            }
            for (int i = 0; i < rows; i++) {
                coalesced(sink, AccessKind.WRITE, layout.floatAddress(ArrayRole.C_SCATTER, (long) (i0 + i) * n + j0), width * Float.BYTES, sector, ArrayRole.C_SCATTER);
            }
        }
    }

    /** One warp-wide access of {@code bytes} contiguous bytes from {@code address}: one access per sector. */
    static void coalesced(TraceSink sink, AccessKind kind, long address, int bytes, int sectorBytes, ArrayRole role) {
        long first = address & -(long) sectorBytes;
        long last = (address + bytes - 1) & -(long) sectorBytes;
        for (long s = first; s <= last; s += sectorBytes) sink.access(kind, s, sectorBytes, role);
    }

    private static void checkSinks(GpuGrid grid, TraceSink[] perSm) {
        if (perSm.length != grid.sms()) throw new IllegalArgumentException(grid.sms() + " SMs given " + perSm.length + " sinks");
    }
}
