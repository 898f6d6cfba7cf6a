package dev.sparseprof.sparse.stats;

/**
 * Non-zeros per column, counted from row bitmaps with bit-sliced counters: for each 64-column word,
 * {@value #PLANES} bit planes hold 64 counters of {@value #PLANES} bits, and adding a row's word is
 * a ripple-carry over the planes (on average two AND/XOR steps per word for random rows), so a
 * dense row costs a few operations per 64 columns instead of one per column. Every
 * {@code 2^PLANES - 1} rows the planes are added into the int counts and cleared.
 */
final class ColumnCounter {
    private static final int PLANES = 16;
    private static final int FLUSH_ROWS = (1 << PLANES) - 1;
    private final int cols;
    private final int nWords;
    private final long[] planes;
    private final int[] counts;
    private int pendingRows;

    /** Counts into {@code counts} (length {@code cols}), adding to what it holds. */
    ColumnCounter(int cols, int[] counts) {
        this.cols = cols;
        this.nWords = RowBits.wordsFor(cols);
        this.planes = new long[nWords * PLANES];
        this.counts = counts;
    }

    void addRow(long[] words) {
        for (int w = 0; w < nWords; w++) {
            long carry = words[w];
            int base = w * PLANES;
            for (int k = 0; carry != 0 && k < PLANES; k++) {
                long p = planes[base + k];
                planes[base + k] = p ^ carry;
                carry &= p;
            }
        }
        if (++pendingRows == FLUSH_ROWS) flush();
    }

    /** Adds the planes into the counts; call once after the last row. */
    void flush() {
        if (pendingRows == 0) return;
        for (int w = 0; w < nWords; w++) {
            int base = w * PLANES;
            int from = w << 6;
            int to = Math.min(cols, from + 64);
            for (int k = 0; k < PLANES; k++) {
                long p = planes[base + k];
                planes[base + k] = 0;
                while (p != 0) {
                    int bit = Long.numberOfTrailingZeros(p);
                    if (from + bit < to) counts[from + bit] += 1 << k;
                    p &= p - 1;
                }
            }
        }
        pendingRows = 0;
    }
}
