package dev.sparseprof.sparse.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * The N:M counters of one scan, fed row bitmaps. Patterns with M = 2, 4 and 8 (one of each at most;
 * the default 1:2, 2:4 and 4:8) are counted in one loop over the words: the SWAR popcount tree of a
 * word gives the 2-, 4- and 8-bit field counts in turn (each level one step from the last), and each
 * level's pattern takes its violations from its own level, with {@link NmCounter}'s add-and-test.
 * A level with no pattern adds and tests nothing (addend and top bits 0). Every other pattern is
 * counted by its own {@link NmCounter#addRow}. The counts are those of the counters alone.
 */
final class NmCounters {
    private final NmCounter[] all;
    private final NmCounter[] alone;
    private final NmCounter at2;
    private final NmCounter at4;
    private final NmCounter at8;
    private final long add2, top2, add4, top4, add8, top8;
    private final boolean shared;
    private long v2, v4, v8;
    private long sharedRows;
    private int cols = -1;

    NmCounters(List<NmPattern> patterns) {
        all = new NmCounter[patterns.size()];
        NmCounter[] byLevel = new NmCounter[9];
        List<NmCounter> rest = new ArrayList<>();
        for (int i = 0; i < all.length; i++) {
            NmCounter c = new NmCounter(patterns.get(i));
            all[i] = c;
            int m = patterns.get(i).m();
            if (c.sharedLevel() && byLevel[m] == null) byLevel[m] = c;
            else rest.add(c);
        }
        alone = rest.toArray(new NmCounter[0]);
        at2 = byLevel[2];
        at4 = byLevel[4];
        at8 = byLevel[8];
        add2 = at2 == null ? 0 : at2.addend();
        top2 = at2 == null ? 0 : at2.topBits();
        add4 = at4 == null ? 0 : at4.addend();
        top4 = at4 == null ? 0 : at4.topBits();
        add8 = at8 == null ? 0 : at8.addend();
        top8 = at8 == null ? 0 : at8.topBits();
        shared = at2 != null || at4 != null || at8 != null;
    }

    /** Rows must all have {@code cols} columns (one matrix per scan). */
    void addRow(long[] words, int cols) {
        this.cols = cols;
        if (shared) {
            sharedRows++;
            int nWords = RowBits.wordsFor(cols);
            long a2 = 0, a4 = 0, a8 = 0;
            for (int w = 0; w < nWords; w++) {
                long x = words[w];
                long c2 = x - ((x >>> 1) & 0x5555555555555555L);
                long c4 = (c2 & 0x3333333333333333L) + ((c2 >>> 2) & 0x3333333333333333L);
                long c8 = (c4 + (c4 >>> 4)) & 0x0F0F0F0F0F0F0F0FL;
                a2 += Long.bitCount((c2 + add2) & top2);
                a4 += Long.bitCount((c4 + add4) & top4);
                a8 += Long.bitCount((c8 + add8) & top8);
            }
            v2 += a2;
            v4 += a4;
            v8 += a8;
        }
        for (NmCounter c : alone) c.addRow(words, cols);
    }

    /** Hands the shared loop's totals to their counters; call once after the last row. */
    void flush() {
        if (sharedRows > 0) {
            if (at2 != null) at2.addCounted(sharedRows, cols, v2);
            if (at4 != null) at4.addCounted(sharedRows, cols, v4);
            if (at8 != null) at8.addCounted(sharedRows, cols, v8);
        }
        sharedRows = 0;
        v2 = v4 = v8 = 0;
    }

    void merge(NmCounters other) {
        for (int i = 0; i < all.length; i++) all[i].merge(other.all[i]);
    }

    NmCompliance result(int i) {
        return all[i].result();
    }

    int size() {
        return all.length;
    }
}
