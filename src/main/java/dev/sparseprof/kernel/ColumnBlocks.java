package dev.sparseprof.kernel;

/**
 * How the row-split kernels cut the N columns of B and C into register blocks: as many
 * 8-vector blocks as fit (N=128 at 16 lanes: one block, 8 accumulators held across the whole nnz
 * loop), then one 4-, 2- and 1-vector block as the remainder needs, then a masked partial vector.
 * The fast path and the traced twin both walk this sequence, so their loop orders agree.
 */
final class ColumnBlocks {
    static final int MAX_VECTORS = 8;

    private ColumnBlocks() {}

    /** Whole vectors in the next block for {@code remaining} columns, or 0 for a masked tail. */
    static int vectors(int remaining, int lanes) {
        int whole = remaining / lanes;
        if (whole >= MAX_VECTORS) return MAX_VECTORS;
        return Integer.highestOneBit(whole); // 4, 2, 1 or 0
    }

    /** Columns the next block covers. */
    static int width(int remaining, int lanes) {
        int v = vectors(remaining, lanes);
        return v == 0 ? remaining : v * lanes;
    }
}
