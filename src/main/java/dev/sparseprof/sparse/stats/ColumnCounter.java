package dev.sparseprof.sparse.stats;

/**
 * Non-zeros per column, counted from row bitmaps with bit-sliced counters in two levels. The first
 * holds, for each 64-column word, {@value #SMALL_PLANES} bit planes (64 counters of
 * {@value #SMALL_PLANES} bits): adding a row's word is a fixed ripple of AND/XOR steps with no
 * branch (random bitmaps make a data-dependent ripple mispredict), in one loop over separate plane
 * arrays that the JIT vectorizes. Every {@value #SMALL_ROWS} rows, before the small counters can
 * overflow, they are added into the second level ({@value #PLANES} planes per word, a ripple that
 * stops when the carry is spent), and every {@code 2^PLANES - 1} rows the second level is added
 * into the int counts and cleared. A dense row costs about a dozen operations per 64 columns
 * instead of one per column.
 */
final class ColumnCounter {
    private static final int SMALL_PLANES = 4;
    private static final int SMALL_ROWS = (1 << SMALL_PLANES) - 1;
    private static final int PLANES = 16;
    /** Rows the second level holds at most: 2^16 - 1, a multiple of {@link #SMALL_ROWS} (65535 = 15 * 4369). */
    private static final int FLUSH_ROWS = (1 << PLANES) - 1;
    private final int cols;
    private final int nWords;
    private final long[] p0;
    private final long[] p1;
    private final long[] p2;
    private final long[] p3;
    private final long[] planes;
    private final int[] counts;
    private int smallRows;
    private int pendingRows;

    /** Counts into {@code counts} (length {@code cols}), adding to what it holds. */
    ColumnCounter(int cols, int[] counts) {
        this.cols = cols;
        this.nWords = RowBits.wordsFor(cols);
        this.p0 = new long[nWords];
        this.p1 = new long[nWords];
        this.p2 = new long[nWords];
        this.p3 = new long[nWords];
        this.planes = new long[nWords * PLANES];
        this.counts = counts;
    }

    void addRow(long[] words) {
        long[] a0 = p0, a1 = p1, a2 = p2, a3 = p3;
        for (int w = 0; w < nWords; w++) {
            long carry = words[w];
            long p = a0[w];
            a0[w] = p ^ carry;
            carry &= p;
            p = a1[w];
            a1[w] = p ^ carry;
            carry &= p;
            p = a2[w];
            a2[w] = p ^ carry;
            carry &= p;
            a3[w] ^= carry; // at most 15 rows: no carry out of the fourth plane
        }
        if (++smallRows == SMALL_ROWS) spill();
    }

    /** Adds the small counters (weights 1, 2, 4, 8) into the second level and clears them. */
    private void spill() {
        long[][] small = {p0, p1, p2, p3};
        for (int k = 0; k < SMALL_PLANES; k++) {
            long[] s = small[k];
            for (int w = 0; w < nWords; w++) {
                long carry = s[w];
                s[w] = 0;
                int base = w * PLANES;
                for (int j = k; carry != 0 && j < PLANES; j++) {
                    long p = planes[base + j];
                    planes[base + j] = p ^ carry;
                    carry &= p;
                }
            }
        }
        pendingRows += smallRows;
        smallRows = 0;
        if (pendingRows == FLUSH_ROWS) flushPlanes();
    }

    /** Adds every counter into the counts; call once after the last row. */
    void flush() {
        if (smallRows > 0) spill();
        flushPlanes();
    }

    private void flushPlanes() {
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
