package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * The recency order of the ways of each set: front = most recently inserted or touched, tail =
 * next victim. Two layouts behind one face, chosen by associativity: up to {@value #STAMP_WAYS}
 * ways, a use stamp per way (contiguous per set, so a set costs one or two host cache lines and a
 * touch is one store; the tail is the smallest stamp); beyond, a doubly linked list in flat int
 * arrays, O(1) whatever the associativity (a fully associative 1024-way set costs the same as 8).
 */
final class RecencyList {
    static final int STAMP_WAYS = 64;
    private static final int NONE = -1;
    private final int ways;
    // stamp layout
    private final int[] stamps;
    private final int clockLimit;
    private int clock;
    // list layout
    private final int[] prev;
    private final int[] next;
    private final boolean[] linked;
    private final int[] head;
    private final int[] tail;

    RecencyList(int sets, int ways) {
        this(sets, ways, Integer.MAX_VALUE);
    }

    /** {@code clockLimit} is where stamps are renumbered (tests make it small). */
    RecencyList(int sets, int ways, int clockLimit) {
        this.ways = ways;
        this.clockLimit = clockLimit;
        int n = sets * ways;
        if (ways <= STAMP_WAYS) {
            stamps = new int[n];
            prev = next = head = tail = null;
            linked = null;
        } else {
            stamps = null;
            prev = new int[n];
            next = new int[n];
            linked = new boolean[n];
            head = new int[sets];
            tail = new int[sets];
            Arrays.fill(head, NONE);
            Arrays.fill(tail, NONE);
        }
    }

    /** Puts {@code way} at the front, unlinking it first if it is in the order. */
    void toFront(int set, int way) {
        if (stamps != null) {
            if (clock == clockLimit) renumber();
            stamps[set * ways + way] = ++clock;
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

    /** Stamp layout only: puts {@code slot = set * ways + way} at the front of its set. */
    void touchSlot(int slot) {
        if (clock == clockLimit) renumber();
        stamps[slot] = ++clock;
    }

    /**
     * Stamp layout only: the way of the set starting at slot {@code base} to fill next, an empty
     * way (stamp 0) if there is one, else the least recent.
     */
    int oldestWay(int base) {
        // the minimum of (stamp, way) packed in a long: no data-dependent branch to mispredict
        long best = Long.MAX_VALUE;
        for (int w = 0; w < ways; w++) best = Math.min(best, (long) stamps[base + w] << 8 | w);
        return (int) best & 0xff;
    }

    boolean stampLayout() {
        return stamps != null;
    }

    void remove(int set, int way) {
        int base = set * ways;
        if (stamps != null) {
            stamps[base + way] = 0;
            return;
        }
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
        if (stamps == null) return tail[set];
        int base = set * ways;
        int best = NONE;
        int bestStamp = Integer.MAX_VALUE;
        for (int w = 0; w < ways; w++) {
            int s = stamps[base + w];
            if (s != 0 && s < bestStamp) {
                bestStamp = s;
                best = w;
            }
        }
        return best;
    }

    /** Replaces every set's stamps by their ranks 1..k (0 stays "not in the order"). */
    private void renumber() {
        int[] order = new int[ways];
        for (int base = 0; base < stamps.length; base += ways) {
            int k = fromTail(base / ways, order);
            for (int i = 0; i < k; i++) stamps[base + order[i]] = i + 1;
        }
        clock = ways;
    }

    /** Ways in the order from the tail to the front. */
    int fromTail(int set, int[] out) {
        int base = set * ways;
        int k = 0;
        if (stamps == null) {
            for (int w = tail[set]; w != NONE && k < out.length; w = prev[base + w]) out[k++] = w;
            return k;
        }
        for (int w = 0; w < ways; w++) {
            if (stamps[base + w] == 0) continue;
            int i = k++;
            while (i > 0 && stamps[base + out[i - 1]] > stamps[base + w]) {
                out[i] = out[i - 1];
                i--;
            }
            out[i] = w;
        }
        return k;
    }
}
