package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.NmPattern;
import java.io.IOException;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * N:M pruning on stored bits in one pass: in each group of M consecutive weights of a row (a partial
 * last group over its real width), a weight survives when fewer than N others of its group rank
 * above it (a larger magnitude key, or an equal key at a lower index), as {@link NmPruning} ranks
 * the decoded floats. The ranks are counted without branches (the keys are below 2^31, so a sign
 * bit of a difference is a comparison). N:4 over whole groups, the 2:4 hot case, runs on vectors:
 * a group's four weights lie in four neighbouring lanes, and each lane meets the other three of
 * its group by three rotations within the group; the scalar loop it replaced cost about 2.3 ns a
 * weight, more CPU time than the writing of the file (docs/models.md, "Writing pruned models back").
 */
final class StoredNm {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    /** Rotation r (1..3) within each group of four lanes: lane i takes lane (i & ~3) | ((i + r) & 3). */
    private static final VectorShuffle<Short> SHORT_TURN1 = turn(SHORTS, 1);
    private static final VectorShuffle<Short> SHORT_TURN2 = turn(SHORTS, 2);
    private static final VectorShuffle<Short> SHORT_TURN3 = turn(SHORTS, 3);
    private static final VectorShuffle<Integer> INT_TURN1 = turn(INTS, 1);
    private static final VectorShuffle<Integer> INT_TURN2 = turn(INTS, 2);
    private static final VectorShuffle<Integer> INT_TURN3 = turn(INTS, 3);
    /** The lanes whose partner in rotation r comes earlier in the group (it wins a tie): (i & 3) + r >= 4. */
    private static final VectorMask<Short> SHORT_EARLIER1 = earlier(SHORTS, 1);
    private static final VectorMask<Short> SHORT_EARLIER2 = earlier(SHORTS, 2);
    private static final VectorMask<Short> SHORT_EARLIER3 = earlier(SHORTS, 3);
    private static final VectorMask<Integer> INT_EARLIER1 = earlier(INTS, 1);
    private static final VectorMask<Integer> INT_EARLIER2 = earlier(INTS, 2);
    private static final VectorMask<Integer> INT_EARLIER3 = earlier(INTS, 3);

    private StoredNm() {}

    private static <E> VectorShuffle<E> turn(VectorSpecies<E> species, int r) {
        return VectorShuffle.fromOp(species, i -> (i & ~3) | ((i + r) & 3));
    }

    private static <E> VectorMask<E> earlier(VectorSpecies<E> species, int r) {
        boolean[] lanes = new boolean[species.length()];
        for (int i = 0; i < lanes.length; i++) lanes[i] = (i & 3) + r >= 4;
        return VectorMask.fromArray(species, lanes, 0);
    }

    static PruneResult prune(StoredLayer layer, NmPattern pattern, StoredChunks chunks, StoredPruner.Sink sink) throws IOException {
        int cols = layer.cols();
        int n = pattern.n();
        int m = pattern.m();
        int[] keys = new int[m];
        long before = 0;
        long after = 0;
        boolean half = chunks.halves != null;
        boolean fours = m == 4 && cols % 4 == 0;
        for (int c = 0; c < chunks.count(); c++) {
            int len = chunks.load(c);
            if (fours) {
                long[] counts = half ? fours(chunks.halves, len, n) : fours(chunks.singles, len, n);
                before += counts[0];
                after += counts[1];
                chunks.store(c, len, sink);
                continue;
            }
            for (int rowStart = 0; rowStart < len; rowStart += cols) {
                for (int g = 0; g < cols; g += m) {
                    int start = rowStart + g;
                    int width = Math.min(m, cols - g);
                    for (int i = 0; i < width; i++) keys[i] = half ? chunks.halves[start + i] & 0x7fff : chunks.singles[start + i] & 0x7fffffff;
                    for (int i = 0; i < width; i++) {
                        int key = keys[i];
                        int better = 0;
                        for (int j = 0; j < i; j++) better += (key - keys[j] - 1) >>> 31; // keys[j] >= key
                        for (int j = i + 1; j < width; j++) better += (key - keys[j]) >>> 31; // keys[j] > key
                        int nonZero = (-key) >>> 31;
                        before += nonZero;
                        if (better >= n) {
                            if (half) chunks.halves[start + i] = key == 0 ? chunks.halves[start + i] : 0;
                            else chunks.singles[start + i] = key == 0 ? chunks.singles[start + i] : 0;
                        } else {
                            after += nonZero;
                        }
                    }
                }
            }
            chunks.store(c, len, sink);
        }
        return new PruneResult(layer.name(), layer.elements(), before, after);
    }

    /**
     * N:4 over whole groups (the 2:4 hot case), on vectors of whole groups and then, for the last
     * groups, by the six pairwise comparisons of a group (equal keys rank the lower index first),
     * all without a branch; returns the non-zeros before and after.
     */
    private static long[] fours(short[] a, int len, int n) {
        long before = 0;
        long after = 0;
        int i = 0;
        int bound = SHORTS.length() % 4 == 0 ? SHORTS.loopBound(len) : 0; // whole groups in whole vectors
        ShortVector zero = ShortVector.zero(SHORTS);
        ShortVector one = ShortVector.broadcast(SHORTS, (short) 1);
        for (; i < bound; i += SHORTS.length()) {
            ShortVector v = ShortVector.fromArray(SHORTS, a, i);
            ShortVector key = v.and((short) 0x7fff);
            ShortVector o1 = key.rearrange(SHORT_TURN1);
            ShortVector o2 = key.rearrange(SHORT_TURN2);
            ShortVector o3 = key.rearrange(SHORT_TURN3);
            // the group's weights ranked above this one: larger keys, and equal keys earlier in the group
            ShortVector better = zero.add(one, o1.compare(VectorOperators.GT, key).or(o1.compare(VectorOperators.EQ, key).and(SHORT_EARLIER1)))
                    .add(one, o2.compare(VectorOperators.GT, key).or(o2.compare(VectorOperators.EQ, key).and(SHORT_EARLIER2)))
                    .add(one, o3.compare(VectorOperators.GT, key).or(o3.compare(VectorOperators.EQ, key).and(SHORT_EARLIER3)));
            VectorMask<Short> nonZero = key.compare(VectorOperators.NE, (short) 0);
            VectorMask<Short> kept = better.compare(VectorOperators.LT, (short) n).and(nonZero);
            zero.blend(v, kept.or(nonZero.not())).intoArray(a, i); // a zero keeps its own bits (-0 stays -0)
            before += nonZero.trueCount();
            after += kept.trueCount();
        }
        for (; i < len; i += 4) {
            int k0 = a[i] & 0x7fff;
            int k1 = a[i + 1] & 0x7fff;
            int k2 = a[i + 2] & 0x7fff;
            int k3 = a[i + 3] & 0x7fff;
            int keep = keptOfFour(k0, k1, k2, k3, n);
            a[i] = (short) (a[i] & -(keep & 1));
            a[i + 1] = (short) (a[i + 1] & -((keep >>> 1) & 1));
            a[i + 2] = (short) (a[i + 2] & -((keep >>> 2) & 1));
            a[i + 3] = (short) (a[i + 3] & -((keep >>> 3) & 1));
            before += nonZero(k0) + nonZero(k1) + nonZero(k2) + nonZero(k3);
            after += nonZero(a[i] & 0x7fff) + nonZero(a[i + 1] & 0x7fff) + nonZero(a[i + 2] & 0x7fff) + nonZero(a[i + 3] & 0x7fff);
        }
        return new long[] {before, after};
    }

    private static long[] fours(int[] a, int len, int n) {
        long before = 0;
        long after = 0;
        int i = 0;
        int bound = INTS.length() % 4 == 0 ? INTS.loopBound(len) : 0;
        IntVector zero = IntVector.zero(INTS);
        IntVector one = IntVector.broadcast(INTS, 1);
        for (; i < bound; i += INTS.length()) {
            IntVector v = IntVector.fromArray(INTS, a, i);
            IntVector key = v.and(0x7fffffff);
            IntVector o1 = key.rearrange(INT_TURN1);
            IntVector o2 = key.rearrange(INT_TURN2);
            IntVector o3 = key.rearrange(INT_TURN3);
            IntVector better = zero.add(one, o1.compare(VectorOperators.GT, key).or(o1.compare(VectorOperators.EQ, key).and(INT_EARLIER1)))
                    .add(one, o2.compare(VectorOperators.GT, key).or(o2.compare(VectorOperators.EQ, key).and(INT_EARLIER2)))
                    .add(one, o3.compare(VectorOperators.GT, key).or(o3.compare(VectorOperators.EQ, key).and(INT_EARLIER3)));
            VectorMask<Integer> nonZero = key.compare(VectorOperators.NE, 0);
            VectorMask<Integer> kept = better.compare(VectorOperators.LT, n).and(nonZero);
            zero.blend(v, kept.or(nonZero.not())).intoArray(a, i);
            before += nonZero.trueCount();
            after += kept.trueCount();
        }
        for (; i < len; i += 4) {
            int k0 = a[i] & 0x7fffffff;
            int k1 = a[i + 1] & 0x7fffffff;
            int k2 = a[i + 2] & 0x7fffffff;
            int k3 = a[i + 3] & 0x7fffffff;
            int keep = keptOfFour(k0, k1, k2, k3, n);
            a[i] &= -(keep & 1);
            a[i + 1] &= -((keep >>> 1) & 1);
            a[i + 2] &= -((keep >>> 2) & 1);
            a[i + 3] &= -((keep >>> 3) & 1);
            before += nonZero(k0) + nonZero(k1) + nonZero(k2) + nonZero(k3);
            after += nonZero(a[i] & 0x7fffffff) + nonZero(a[i + 1] & 0x7fffffff) + nonZero(a[i + 2] & 0x7fffffff) + nonZero(a[i + 3] & 0x7fffffff);
        }
        return new long[] {before, after};
    }

    /** Bit i set when weight i of the group survives (rank below n) or is a zero already (its bits stay). */
    private static int keptOfFour(int k0, int k1, int k2, int k3, int n) {
        int c01 = (k0 - k1) >>> 31; // k1 > k0
        int c02 = (k0 - k2) >>> 31;
        int c03 = (k0 - k3) >>> 31;
        int c12 = (k1 - k2) >>> 31;
        int c13 = (k1 - k3) >>> 31;
        int c23 = (k2 - k3) >>> 31;
        int b0 = c01 + c02 + c03;
        int b1 = 1 - c01 + c12 + c13;
        int b2 = 2 - c02 - c12 + c23;
        int b3 = 3 - c03 - c13 - c23;
        int keep0 = ((b0 - n) >>> 31) | (1 - nonZero(k0));
        int keep1 = ((b1 - n) >>> 31) | (1 - nonZero(k1));
        int keep2 = ((b2 - n) >>> 31) | (1 - nonZero(k2));
        int keep3 = ((b3 - n) >>> 31) | (1 - nonZero(k3));
        return keep0 | keep1 << 1 | keep2 << 2 | keep3 << 3;
    }

    private static int nonZero(int key) {
        return (-key) >>> 31;
    }
}
