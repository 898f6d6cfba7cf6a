package dev.sparseprof.measure.gpu;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.GrowIntArray;
import dev.sparseprof.util.SparseprofException;
import java.util.Arrays;

/**
 * The block-sparse arrays {@code bsr_spmm} reads: {@code blockRowPointers} over block rows,
 * {@code blockColumns} the block-column of each stored block, {@code blockValues} each block's
 * {@code blockRows x blockCols} values row-major, blocks in order. A block is stored when any of its
 * entries is a stored non-zero of the CSR.
 */
record BsrBlocks(int blockRows, int blockCols, int[] blockRowPointers, int[] blockColumns, float[] blockValues) {
    static final int MAX_BLOCK_ROWS = 16;

    static BsrBlocks from(CsrMatrix a, int r, int c) {
        if (r < 1 || r > MAX_BLOCK_ROWS || c < 1) throw new SparseprofException("bsr: block " + r + "x" + c + " (rows 1.." + MAX_BLOCK_ROWS + ")");
        if (a.rows() % r != 0 || a.cols() % c != 0) {
            throw new SparseprofException("bsr: " + a.rows() + "x" + a.cols() + " is not a whole number of " + r + "x" + c + " blocks");
        }
        int bRows = a.rows() / r;
        int bCols = a.cols() / c;
        int[] ptr = new int[bRows + 1];
        GrowIntArray cols = new GrowIntArray();
        int[] slot = new int[bCols];
        int[] rp = a.rowPointers();
        int[] ci = a.columnIndices();
        float[] v = a.values();
        float[] vals = new float[16];
        int blocks = 0;
        for (int br = 0; br < bRows; br++) {
            Arrays.fill(slot, -1);
            for (int i = br * r; i < br * r + r; i++) {
                for (int j = rp[i]; j < rp[i + 1]; j++) {
                    int bc = ci[j] / c;
                    if (slot[bc] < 0) slot[bc] = 0;
                }
            }
            for (int bc = 0; bc < bCols; bc++) {
                if (slot[bc] < 0) continue;
                slot[bc] = blocks++;
                cols.add(bc);
            }
            long need = (long) blocks * r * c;
            if (need > vals.length) vals = Arrays.copyOf(vals, Checks.toIntExact(Math.max(need, 2L * vals.length), "bsr values"));
            for (int i = br * r; i < br * r + r; i++) {
                for (int j = rp[i]; j < rp[i + 1]; j++) {
                    int b = slot[ci[j] / c];
                    vals[(b * r + (i - br * r)) * c + ci[j] % c] = v[j];
                }
            }
            ptr[br + 1] = blocks;
        }
        return new BsrBlocks(r, c, ptr, cols.toArray(), Arrays.copyOf(vals, blocks * r * c));
    }

    int storedBlocks() {
        return blockColumns.length;
    }
}
