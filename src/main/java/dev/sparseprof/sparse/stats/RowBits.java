package dev.sparseprof.sparse.stats;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The non-zero bitmap of one row: bit {@code c & 63} of word {@code c >>> 6} is set when element
 * {@code c} is not 0.0f (NaN counts as non-zero, -0.0f as zero, as with {@code != 0.0f}). Bits past
 * the row's end are 0. Every statistic of the scan is computed from this bitmap, so the float row is
 * read once, with the Vector API.
 */
final class RowBits {
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;

    private RowBits() {}

    static int wordsFor(int cols) {
        return (cols + 63) >>> 6;
    }

    /**
     * Fills {@code words[0 .. wordsFor(cols))} from {@code row[0 .. cols)}, adds 1 to
     * {@code columnCounts[c]} for each non-zero when the array is not null, and returns the
     * row's non-zero count.
     */
    static int fill(float[] row, int cols, long[] words, int[] columnCounts) {
        int nWords = wordsFor(cols);
        for (int w = 0; w < nWords; w++) words[w] = 0L;
        int lanes = FLOATS.length();
        int bound = FLOATS.loopBound(cols);
        int c = 0;
        boolean sameShape = columnCounts != null && INTS.length() == lanes;
        for (; c < bound; c += lanes) {
            VectorMask<Float> nonZero = FloatVector.fromArray(FLOATS, row, c).compare(VectorOperators.NE, 0.0f);
            // lanes divides 64, so a vector's bits never straddle two words
            words[c >>> 6] |= nonZero.toLong() << (c & 63);
            if (sameShape) {
                IntVector.fromArray(INTS, columnCounts, c).lanewise(VectorOperators.ADD, 1, nonZero.cast(INTS))
                        .intoArray(columnCounts, c);
            }
        }
        for (; c < cols; c++) {
            if (row[c] != 0.0f) words[c >>> 6] |= 1L << c;
        }
        if (columnCounts != null) {
            int scalarFrom = sameShape ? bound : 0;
            for (int k = scalarFrom; k < cols; k++) {
                columnCounts[k] += (int) ((words[k >>> 6] >>> k) & 1L);
            }
        }
        int nnz = 0;
        for (int w = 0; w < nWords; w++) nnz += Long.bitCount(words[w]);
        return nnz;
    }

    /** Set bits in the bit range {@code [from, to)}. */
    static int bitCount(long[] words, int from, int to) {
        if (from >= to) return 0;
        int first = from >>> 6;
        int last = (to - 1) >>> 6;
        long headMask = -1L << from;
        long tailMask = -1L >>> (63 - ((to - 1) & 63));
        if (first == last) return Long.bitCount(words[first] & headMask & tailMask);
        int n = Long.bitCount(words[first] & headMask);
        for (int w = first + 1; w < last; w++) n += Long.bitCount(words[w]);
        return n + Long.bitCount(words[last] & tailMask);
    }

    /** Whether any bit in {@code [from, to)} is set. */
    static boolean anyBit(long[] words, int from, int to) {
        if (from >= to) return false;
        int first = from >>> 6;
        int last = (to - 1) >>> 6;
        long headMask = -1L << from;
        long tailMask = -1L >>> (63 - ((to - 1) & 63));
        if (first == last) return (words[first] & headMask & tailMask) != 0;
        if ((words[first] & headMask) != 0) return true;
        for (int w = first + 1; w < last; w++) if (words[w] != 0) return true;
        return (words[last] & tailMask) != 0;
    }
}
