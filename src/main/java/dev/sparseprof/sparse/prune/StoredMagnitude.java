package dev.sparseprof.sparse.prune;

import java.io.IOException;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Per-layer magnitude pruning on stored bits, exact and streaming: the weights keep the top
 * {@code keep} magnitude keys (the stored bits without the sign: 15 bits for fp16/bf16, 31 for
 * fp32, monotonic in |w|, NaN above infinity), ties to the lower index, the same choice as
 * {@link Ranking#keepLargestMagnitudes} on the decoded floats.
 *
 * <ul>
 * <li>16-bit: one counting pass over the 2^15 keys gives the exact threshold key T and how many of
 * the weights equal to T survive (the first ones).</li>
 * <li>fp32: a two-level radix select: the top 16 key bits, then the low 15 bits inside the
 * threshold bucket (a second counting pass).</li>
 * <li>Then one pass keeps key &gt; T, and the first {@code ties} weights with key = T; a chunk
 * whose T-weights are all kept (or all dropped) is one vector select, only the chunk where the tie
 * budget runs out is decided weight by weight.</li>
 * </ul>
 * A dropped weight becomes +0 (all bits clear); a weight stored as -0 keeps its bits.
 */
final class StoredMagnitude {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;

    private StoredMagnitude() {}

    static PruneResult prune(StoredLayer layer, double sparsity, StoredChunks chunks, StoredPruner.Sink sink) throws IOException {
        long n = layer.elements();
        long keep = n - Ranking.prunedCount(sparsity, n);
        if (keep >= n) return StoredPruner.copy(layer, chunks, sink);
        boolean half = chunks.halves != null;
        Threshold t = half ? threshold16(chunks, keep) : threshold32(chunks, keep);
        long before = n - t.zeros();
        write(chunks, sink, t.key(), t.ties(), t.atThreshold());
        // kept weights are non-zero unless T is 0 (then every non-zero weight is kept, and the kept zeros stay zeros)
        long after = t.key() > 0 ? keep : before;
        return new PruneResult(layer.name(), n, before, after);
    }

    /**
     * The writing pass: keeps the weights whose key is above {@code key}, and the first {@code ties}
     * of the {@code atThreshold} weights whose key equals it; the others become +0.
     */
    static void write(StoredChunks chunks, StoredPruner.Sink sink, int key, long ties, long atThreshold) throws IOException {
        boolean half = chunks.halves != null;
        long tiesLeft = atThreshold;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            if (ties == 0) {
                keepAbove(chunks, len, key);
            } else if (ties >= tiesLeft) {
                keepAbove(chunks, len, key - 1);
            } else {
                int here = half ? countEqual(chunks.halves, len, (short) key) : countEqual(chunks.singles, len, key);
                if (here <= ties) {
                    keepAbove(chunks, len, key - 1);
                    ties -= here;
                } else {
                    ties = half ? keepTies(chunks.halves, len, (short) key, ties) : keepTies(chunks.singles, len, key, ties);
                }
                tiesLeft -= here;
            }
            chunks.store(c, len, sink);
        }
    }

    /** The threshold key T, the number of key-T weights to keep, all the key-T weights, and the zeros (key 0). */
    private record Threshold(int key, long ties, long atThreshold, long zeros) {}

    private static Threshold threshold16(StoredChunks chunks, long keep) {
        int[] lanes = new int[4 << 15];
        for (int c = 0; c < chunks.count(); c++) {
            countHalfKeys(chunks.halves, chunks.load(c), lanes);
        }
        long[] hist = merge(lanes);
        if (keep <= 0) return new Threshold(0x7fff, 0, hist[0x7fff], hist[0]);
        int key = hist.length - 1;
        long above = 0;
        while (above + hist[key] < keep) above += hist[key--];
        return new Threshold(key, keep - above, hist[key], hist[0]);
    }

    /**
     * Counts the 16-bit stored keys (the value without its sign) of {@code a[0, len)} into
     * {@code lanes}, four interleaved counters per key ({@code lanes[key * 4 + i % 4]}, summed by
     * {@link #merge}): trained weights crowd into a few keys, and one counter would make each
     * increment wait for the last.
     */
    static void countHalfKeys(short[] a, int len, int[] lanes) {
        int i = 0;
        for (; i + 4 <= len; i += 4) {
            lanes[(a[i] & 0x7fff) << 2]++;
            lanes[((a[i + 1] & 0x7fff) << 2) + 1]++;
            lanes[((a[i + 2] & 0x7fff) << 2) + 2]++;
            lanes[((a[i + 3] & 0x7fff) << 2) + 3]++;
        }
        for (; i < len; i++) lanes[(a[i] & 0x7fff) << 2]++;
    }

    private static Threshold threshold32(StoredChunks chunks, long keep) {
        int[] lanes = new int[4 << 16];
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            int[] a = chunks.singles;
            int i = 0;
            for (; i + 4 <= len; i += 4) {
                lanes[((a[i] & 0x7fffffff) >>> 15) << 2]++;
                lanes[(((a[i + 1] & 0x7fffffff) >>> 15) << 2) + 1]++;
                lanes[(((a[i + 2] & 0x7fffffff) >>> 15) << 2) + 2]++;
                lanes[(((a[i + 3] & 0x7fffffff) >>> 15) << 2) + 3]++;
            }
            for (; i < len; i++) lanes[((a[i] & 0x7fffffff) >>> 15) << 2]++;
        }
        long[] high = merge(lanes);
        int bucket = high.length - 1;
        long above = 0;
        if (keep > 0) while (above + high[bucket] < keep) above += high[bucket--];
        long[] low = new long[1 << 15];
        long zeros = 0;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            int[] a = chunks.singles;
            for (int i = 0; i < len; i++) {
                int key = a[i] & 0x7fffffff;
                zeros += (key - 1) >>> 31;
                if (key >>> 15 == bucket) low[key & 0x7fff]++;
            }
        }
        if (keep <= 0) return new Threshold(0x7fffffff, 0, low[0x7fff], zeros);
        int lowKey = low.length - 1;
        while (above + low[lowKey] < keep) above += low[lowKey--];
        return new Threshold((bucket << 15) | lowKey, keep - above, low[lowKey], zeros);
    }

    private static long[] merge(int[] lanes) {
        long[] hist = new long[lanes.length >>> 2];
        for (int b = 0; b < hist.length; b++) hist[b] = (long) lanes[b << 2] + lanes[(b << 2) + 1] + lanes[(b << 2) + 2] + lanes[(b << 2) + 3];
        return hist;
    }

    /** Keeps the weights whose key is above {@code t} (and the zeros' own bits); the others become +0. */
    private static void keepAbove(StoredChunks chunks, int len, int t) {
        if (chunks.halves != null) keepAbove(chunks.halves, len, (short) t);
        else keepAbove(chunks.singles, len, t);
    }

    private static void keepAbove(short[] a, int len, short t) {
        int i = 0;
        int bound = SHORTS.loopBound(len);
        ShortVector zero = ShortVector.zero(SHORTS);
        for (; i < bound; i += SHORTS.length()) {
            ShortVector v = ShortVector.fromArray(SHORTS, a, i);
            ShortVector key = v.and((short) 0x7fff);
            VectorMask<Short> kept = key.compare(VectorOperators.GT, t).or(key.compare(VectorOperators.EQ, (short) 0));
            zero.blend(v, kept).intoArray(a, i);
        }
        for (; i < len; i++) {
            int key = a[i] & 0x7fff;
            if (key <= t && key != 0) a[i] = 0;
        }
    }

    private static void keepAbove(int[] a, int len, int t) {
        int i = 0;
        int bound = INTS.loopBound(len);
        IntVector zero = IntVector.zero(INTS);
        for (; i < bound; i += INTS.length()) {
            IntVector v = IntVector.fromArray(INTS, a, i);
            IntVector key = v.and(0x7fffffff);
            VectorMask<Integer> kept = key.compare(VectorOperators.GT, t).or(key.compare(VectorOperators.EQ, 0));
            zero.blend(v, kept).intoArray(a, i);
        }
        for (; i < len; i++) {
            int key = a[i] & 0x7fffffff;
            if (key <= t && key != 0) a[i] = 0;
        }
    }

    private static int countEqual(short[] a, int len, short t) {
        int n = 0;
        for (int i = 0; i < len; i++) n += (a[i] & 0x7fff) == t ? 1 : 0;
        return n;
    }

    private static int countEqual(int[] a, int len, int t) {
        int n = 0;
        for (int i = 0; i < len; i++) n += (a[i] & 0x7fffffff) == t ? 1 : 0;
        return n;
    }

    /** Weight by weight: key above T kept, the first {@code ties} key-T weights kept; returns the ties left. */
    private static long keepTies(short[] a, int len, short t, long ties) {
        for (int i = 0; i < len; i++) {
            int key = a[i] & 0x7fff;
            if (key == t && ties > 0) ties--;
            else if (key <= t && key != 0) a[i] = 0;
        }
        return ties;
    }

    private static long keepTies(int[] a, int len, int t, long ties) {
        for (int i = 0; i < len; i++) {
            int key = a[i] & 0x7fffffff;
            if (key == t && ties > 0) ties--;
            else if (key <= t && key != 0) a[i] = 0;
        }
        return ties;
    }
}
