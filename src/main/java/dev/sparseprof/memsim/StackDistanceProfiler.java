package dev.sparseprof.memsim;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import java.util.Arrays;

/**
 * Mattson's stack-distance algorithm in one pass: for every line reference, the number of distinct
 * other lines touched since the previous reference to it, from which the LRU miss ratio of a fully
 * associative cache of every size follows ({@link MissRatioCurve}).
 *
 * <p>Each live line keeps its last-use time in a hash map; a Fenwick tree over times holds a 1 at
 * every line's last use, so a distance is a range count, O(log n) per reference. When the time
 * axis fills up, live lines are renumbered in order (memory stays proportional to the distinct
 * lines, not the trace length). Reads and writes count alike (write-allocate); copy-back and
 * invalidate records are ignored.
 */
public final class StackDistanceProfiler implements TraceSink {
    private static final int MIN_TIMES = 1 << 16;
    private final int lineShift;
    private final int lineBytes;
    private final LongIntHashMap lastUse = new LongIntHashMap(1 << 12);
    private int[] tree = new int[MIN_TIMES + 1]; // Fenwick, 1-based: slot t + 1 is time t
    private int now;
    private long[] histogram = new long[1024];
    private long references;
    private long coldMisses;

    public StackDistanceProfiler(int lineBytes) {
        if (lineBytes < 1 || Integer.bitCount(lineBytes) != 1) throw new IllegalArgumentException("line size " + lineBytes);
        this.lineBytes = lineBytes;
        this.lineShift = Integer.numberOfTrailingZeros(lineBytes);
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        if (kind == AccessKind.COPY_BACK || kind == AccessKind.INVALIDATE) return;
        long first = address >>> lineShift;
        long last = (address + sizeBytes - 1) >>> lineShift;
        for (long line = first; line - last <= 0; line++) reference(line);
    }

    private void reference(long line) {
        if (now == tree.length - 1) compact();
        references++;
        int t0 = lastUse.get(line);
        if (t0 == LongIntHashMap.MISSING) {
            coldMisses++;
        } else {
            int distance = prefix(now) - prefix(t0 + 1);
            if (distance >= histogram.length) histogram = Arrays.copyOf(histogram, Math.max(distance + 1, histogram.length * 2));
            histogram[distance]++;
            add(t0, -1);
        }
        add(now, 1);
        lastUse.put(line, now);
        now++;
    }

    /** Sum over times {@code < t}. */
    private int prefix(int t) {
        int s = 0;
        for (int i = t; i > 0; i -= i & -i) s += tree[i];
        return s;
    }

    private void add(int t, int delta) {
        for (int i = t + 1; i < tree.length; i += i & -i) tree[i] += delta;
    }

    /** Renumbers live lines 0..live-1 in last-use order and rebuilds the tree (grown if over half full). */
    private void compact() {
        int live = lastUse.size();
        int[] slotByTime = new int[now];
        Arrays.fill(slotByTime, -1);
        for (int s = 0; s < lastUse.capacity(); s++) {
            if (lastUse.keyAt(s) != LongIntHashMap.EMPTY) slotByTime[lastUse.valueAt(s)] = s;
        }
        int t = 0;
        for (int s : slotByTime) if (s >= 0) lastUse.setValueAt(s, t++);
        int times = Math.max(MIN_TIMES, Integer.highestOneBit(Math.max(1, live)) << 2);
        tree = new int[times + 1];
        for (int i = 1; i <= live; i++) tree[i] += 1;
        for (int i = 1; i <= times; i++) {
            int j = i + (i & -i);
            if (j <= times) tree[j] += tree[i];
        }
        now = live;
    }

    /** The curve of everything seen so far. */
    public MissRatioCurve curve() {
        int max = histogram.length;
        while (max > 0 && histogram[max - 1] == 0) max--;
        return new MissRatioCurve(lineBytes, references, coldMisses, Arrays.copyOf(histogram, max));
    }
}
