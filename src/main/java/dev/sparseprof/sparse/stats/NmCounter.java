package dev.sparseprof.sparse.stats;

/**
 * Counts the groups of one row bitmap that break an N:M pattern. For M a power of two up to 64 the
 * groups never straddle a word, and a SWAR popcount per M-bit field plus one add tests all groups of
 * a word at once: a field holds its count v (at most M) and {@code v + 2^(M-1) - N - 1} sets the
 * field's top bit exactly when {@code v > N}, without carrying into the next field. Other M go
 * group by group over the bitmap. {@link NmCounters} runs the patterns with M = 2, 4 and 8 in one
 * loop that shares the field counts, and adds its totals here with {@link #addCounted}.
 */
final class NmCounter {
    private final NmPattern pattern;
    private final boolean swar;
    private final long addend;
    private final long topBits;
    private long groups;
    private long violations;

    NmCounter(NmPattern pattern) {
        this.pattern = pattern;
        int m = pattern.m();
        this.swar = m >= 2 && m <= 64 && Integer.bitCount(m) == 1;
        long add = 0;
        long top = 0;
        if (swar) {
            long fieldTop = 1L << (m - 1);
            for (int shift = 0; shift < 64; shift += m) {
                add |= (fieldTop - pattern.n() - 1) << shift;
                top |= fieldTop << shift;
            }
        }
        this.addend = add;
        this.topBits = top;
    }

    /** True when M is 2, 4 or 8: {@link NmCounters} can count this pattern in its shared loop. */
    boolean sharedLevel() {
        int m = pattern.m();
        return m == 2 || m == 4 || m == 8;
    }

    /** What {@link #swarViolations} adds to each M-bit field count: its top bit is then set exactly when the count exceeds N. */
    long addend() {
        return addend;
    }

    long topBits() {
        return topBits;
    }

    /** Adds {@code rowCount} rows of {@code cols} whose violating groups were counted elsewhere. */
    void addCounted(long rowCount, int cols, long violatingGroups) {
        groups += rowCount * pattern.groupsPerRow(cols);
        violations += violatingGroups;
    }

    void addRow(long[] words, int cols) {
        groups += pattern.groupsPerRow(cols);
        violations += swar ? swarViolations(words, RowBits.wordsFor(cols)) : groupViolations(words, cols);
    }

    private long swarViolations(long[] words, int nWords) {
        int m = pattern.m();
        long v = 0;
        for (int w = 0; w < nWords; w++) {
            v += Long.bitCount((fieldCounts(words[w], m) + addend) & topBits);
        }
        return v;
    }

    /** Popcount of every {@code m}-bit field of {@code x}, left in the field. */
    private static long fieldCounts(long x, int m) {
        x = x - ((x >>> 1) & 0x5555555555555555L);
        if (m == 2) return x;
        x = (x & 0x3333333333333333L) + ((x >>> 2) & 0x3333333333333333L);
        if (m == 4) return x;
        x = (x + (x >>> 4)) & 0x0F0F0F0F0F0F0F0FL;
        if (m == 8) return x;
        x = (x + (x >>> 8)) & 0x00FF00FF00FF00FFL;
        if (m == 16) return x;
        x = (x + (x >>> 16)) & 0x0000FFFF0000FFFFL;
        if (m == 32) return x;
        return (x + (x >>> 32)) & 0xFFFFFFFFL;
    }

    private long groupViolations(long[] words, int cols) {
        int m = pattern.m();
        long v = 0;
        for (int start = 0; start < cols; start += m) {
            if (RowBits.bitCount(words, start, (int) Math.min(cols, (long) start + m)) > pattern.n()) v++;
        }
        return v;
    }

    void merge(NmCounter other) {
        groups += other.groups;
        violations += other.violations;
    }

    NmCompliance result() {
        return new NmCompliance(pattern, groups, groups - violations);
    }
}
