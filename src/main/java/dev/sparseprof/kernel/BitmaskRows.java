package dev.sparseprof.kernel;

import dev.sparseprof.sparse.BitmaskMatrix;

/**
 * A bitmask matrix with the start of each row's values (the popcount prefix of its bitmap rows),
 * which the format does not store: kernels need it to split rows among threads.
 */
public record BitmaskRows(BitmaskMatrix matrix, int[] rowStarts) {
    public static BitmaskRows of(BitmaskMatrix m) {
        int[] starts = new int[m.rows() + 1];
        long[] bits = m.bitmap();
        int words = m.wordsPerRow();
        for (int r = 0; r < m.rows(); r++) {
            int count = 0;
            for (int w = 0; w < words; w++) count += Long.bitCount(bits[r * words + w]);
            starts[r + 1] = starts[r] + count;
        }
        return new BitmaskRows(m, starts);
    }
}
