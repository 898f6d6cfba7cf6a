package dev.sparseprof.memsim;

/**
 * A fully associative LRU set of {@code capacityLines} line addresses with O(1) access (hash map
 * plus recency list): the shadow cache of the 3C classification and the reference model the
 * miss-ratio curve is checked against.
 */
public final class FullyAssociativeLru {
    private final int capacity;
    private final LongIntHashMap slotOf;
    private final long[] lines;
    private final RecencyList recency;
    private int used;

    public FullyAssociativeLru(int capacityLines) {
        if (capacityLines < 1) throw new IllegalArgumentException("capacity " + capacityLines);
        capacity = capacityLines;
        slotOf = new LongIntHashMap(Math.min(capacityLines, 1 << 20));
        lines = new long[capacityLines];
        recency = new RecencyList(1, capacityLines);
    }

    /** Touches {@code line} (a non-negative line address); true if it was present. */
    public boolean access(long line) {
        int slot = slotOf.get(line);
        if (slot != LongIntHashMap.MISSING) {
            recency.toFront(0, slot);
            return true;
        }
        if (used < capacity) {
            slot = used++;
        } else {
            slot = recency.tail(0);
            slotOf.remove(lines[slot]);
        }
        lines[slot] = line;
        slotOf.put(line, slot);
        recency.toFront(0, slot);
        return false;
    }
}
