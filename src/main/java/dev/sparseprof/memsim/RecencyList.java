package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * One doubly linked list of ways per set in flat int arrays: O(1) move-to-front, removal and
 * tail, whatever the associativity (a fully associative 1024-way set costs the same as 8 ways).
 * The front is the most recently inserted or touched way, the tail the next victim.
 */
final class RecencyList {
    private static final int NONE = -1;
    private final int ways;
    private final int[] prev;
    private final int[] next;
    private final boolean[] linked;
    private final int[] head;
    private final int[] tail;

    RecencyList(int sets, int ways) {
        this.ways = ways;
        int n = sets * ways;
        prev = new int[n];
        next = new int[n];
        linked = new boolean[n];
        head = new int[sets];
        tail = new int[sets];
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
    }

    /** Puts {@code way} at the front, unlinking it first if it is in the list. */
    void toFront(int set, int way) {
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

    void remove(int set, int way) {
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

    int tail(int set) {
        return tail[set];
    }

    /** Ways from the tail to the front. */
    int fromTail(int set, int[] out) {
        int base = set * ways;
        int k = 0;
        for (int w = tail[set]; w != NONE && k < out.length; w = prev[base + w]) out[k++] = w;
        return k;
    }
}
