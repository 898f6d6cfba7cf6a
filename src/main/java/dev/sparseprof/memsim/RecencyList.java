package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * The recency order of the ways of each set: front = most recently inserted or touched, tail =
 * next victim; a way is in the order from its insertion until it is removed. Two layouts behind
 * one face, chosen by associativity:
 * <ul>
 *   <li>up to {@value #PACKED_WAYS} ways, the whole order of a set in one {@code long}: nibble
 *       {@code i} holds the way at position {@code i} (0 = most recent). The ways in the order take
 *       positions {@code 0..k-1}, the others (empty ways) the rest, so the last position holds an
 *       empty way when the set has one, else the least recent way. A touch finds the way's nibble
 *       (SWAR, no loop) and moves it to the front in a few shifts; the victim is one shift.</li>
 *   <li>beyond, a doubly linked list in flat int arrays, O(1) whatever the associativity (a fully
 *       associative 1024-way set costs the same as 8).</li>
 * </ul>
 */
final class RecencyList {
    static final int PACKED_WAYS = 16;
    private static final long NIBBLE_ONES = 0x1111111111111111L;
    private static final long NIBBLE_HIGHS = 0x8888888888888888L;
    private static final int NONE = -1;
    private final int ways;
    // packed layout
    private final long[] order;
    private final byte[] inOrder; // per set, how many ways are in the order (positions 0..k-1)
    private final int lastShift;  // 4 * (ways - 1): the last position's bit offset
    private final long allWays;   // the nibbles of positions 0..ways-1
    // list layout
    private final int[] prev;
    private final int[] next;
    private final boolean[] linked;
    private final int[] head;
    private final int[] tail;

    RecencyList(int sets, int ways) {
        this.ways = ways;
        int n = sets * ways;
        if (ways <= PACKED_WAYS) {
            order = new long[sets];
            long identity = 0;
            for (int w = ways - 1; w >= 0; w--) identity = identity << 4 | w;
            Arrays.fill(order, identity);
            inOrder = new byte[sets];
            lastShift = 4 * (ways - 1);
            allWays = upTo(ways - 1);
            prev = next = head = tail = null;
            linked = null;
        } else {
            order = null;
            inOrder = null;
            lastShift = 0;
            allWays = 0;
            prev = new int[n];
            next = new int[n];
            linked = new boolean[n];
            head = new int[sets];
            tail = new int[sets];
            Arrays.fill(head, NONE);
            Arrays.fill(tail, NONE);
        }
    }

    boolean packed() {
        return order != null;
    }

    /** The nibbles of positions {@code 0..p} ({@code p} in 0..15). */
    private static long upTo(int p) {
        return -1L >>> (60 - 4 * p);
    }

    /** The position of {@code way} in a packed order: the lowest nibble equal to it (exact for the lowest). */
    private static int position(long o, int way) {
        long x = o ^ (way * NIBBLE_ONES);
        return Long.numberOfTrailingZeros((x - NIBBLE_ONES) & ~x & NIBBLE_HIGHS) >>> 2;
    }

    /** {@code o} with the way at position {@code p} moved to the front, those before it one back. */
    private static long moveToFront(long o, int p, int way) {
        long before = upTo(p) >>> 4;
        return (o & ~upTo(p)) | (o & before) << 4 | way;
    }

    /** Puts {@code way} at the front, unlinking it first if it is in the order. */
    void toFront(int set, int way) {
        if (order != null) {
            long o = order[set];
            int p = position(o, way);
            if (p >= inOrder[set]) inOrder[set]++;
            order[set] = moveToFront(o, p, way);
            return;
        }
        int base = set * ways;
        if (linked[base + way]) {
            if (head[set] == way) return;
            remove(set, way);
        }
        int h = head[set];
        prev[base + way] = NONE;
        next[base + way] = h;
        if (h != NONE) prev[base + h] = way;
        else tail[set] = way;
        head[set] = way;
        linked[base + way] = true;
    }

    /** Packed layout only: puts {@code way}, which is in the order, at the front (a hit). */
    void touch(int set, int way) {
        long o = order[set];
        order[set] = moveToFront(o, position(o, way), way);
    }

    /**
     * Packed layout only: the way of {@code set} to fill next, an empty one if the set has one,
     * else the least recent; {@link #fillLast} then puts it at the front.
     */
    int lastWay(int set) {
        return (int) (order[set] >>> lastShift) & 0xf;
    }

    /** Packed layout only: moves {@link #lastWay} to the front; {@code wasEmpty} says it was not in the order. */
    void fillLast(int set, boolean wasEmpty) {
        long o = order[set];
        order[set] = (o << 4 | o >>> lastShift) & allWays;
        if (wasEmpty) inOrder[set]++;
    }

    void remove(int set, int way) {
        if (order != null) {
            long o = order[set];
            int p = position(o, way);
            if (p >= inOrder[set]) return;
            inOrder[set]--;
            long before = upTo(p) >>> 4;
            // the positions after p move one forward; the way goes to the last position
            order[set] = (o & before) | (o >>> 4 & ~before) | (long) way << lastShift;
            return;
        }
        int base = set * ways;
        if (!linked[base + way]) return;
        int p = prev[base + way];
        int n = next[base + way];
        if (p != NONE) next[base + p] = n;
        else head[set] = n;
        if (n != NONE) prev[base + n] = p;
        else tail[set] = p;
        linked[base + way] = false;
    }

    /** The least recent way in the order (-1 if empty). */
    int tail(int set) {
        if (order == null) return tail[set];
        int k = inOrder[set];
        return k == 0 ? NONE : (int) (order[set] >>> 4 * (k - 1)) & 0xf;
    }

    /** Ways in the order from the tail to the front. */
    int fromTail(int set, int[] out) {
        int k = 0;
        if (order == null) {
            int base = set * ways;
            for (int w = tail[set]; w != NONE && k < out.length; w = prev[base + w]) out[k++] = w;
            return k;
        }
        long o = order[set];
        for (int p = inOrder[set] - 1; p >= 0 && k < out.length; p--) out[k++] = (int) (o >>> 4 * p) & 0xf;
        return k;
    }
}
