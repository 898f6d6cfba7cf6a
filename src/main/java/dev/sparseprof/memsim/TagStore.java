package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * The second layer of a cache level (see {@link Cache}): the tag array and each line's state, and
 * the lookup that finds a line in its set.
 *
 * <p>State lives in flat arrays indexed by {@code slot = set * ways + way}: the line address
 * ({@link #INVALID} when the way is empty), valid and dirty sector masks (sectored lines only; an
 * unsectored line is valid when its tag is and keeps its dirty bit in {@code meta}, so it touches
 * one array less per reference), and {@code meta}: the line's array role, {@link #PREFETCHED},
 * {@link #DIRTY}. Sets with more than {@value #HASH_THRESHOLD} ways find lines through a hash map
 * (kept in step by the fill layer), so fully associative caches stay O(1).
 *
 * <p>Also here, as lookup state: the way last hit or filled per set ({@code mruWay}) and the first
 * level's two-entry line filter ({@link #remember}). Contract: {@link #tryHit} reads only; whoever
 * empties or refills a slot keeps the filter's invariant (each entry is the MRU line of its set, the
 * two in different sets) by {@link #remember} on a fill and {@link #dropFromFilter} on an
 * invalidation.
 */
abstract sealed class TagStore extends CacheGeometry permits LineFill {
    static final long INVALID = -1L;
    static final int HASH_THRESHOLD = 16;
    static final int PREFETCHED = 0x40;
    static final int ROLE_MASK = 0x3f;
    static final int DIRTY = 0x80;

    final long[] tags;
    final boolean sectored;
    final long[] sectors; // sectored only: [2 * slot] valid mask, [2 * slot + 1] dirty mask
    final byte[] meta;    // array role (low bits) | PREFETCHED | DIRTY (unsectored lines)
    final LongIntHashMap index;

    // per set, the way last hit or filled: hitting it again changes no replacement state (where
    // the policy says so), so such hits skip the tag scan and the policy, as Dinero checks its
    // stack top first
    final int[] mruWay;
    // only a level no cache feeds checks (and keeps) its MRU ways: below, the references are
    // misses from above, rarely to the MRU line, and mruWay would be one more host line per miss
    boolean lruMruCheck = true;
    // the first level's two-entry filter: two lines, each the MRU line of its set, in two different
    // sets (so a reference to one leaves the other MRU). A repeat of either is an MRU hit (no LRU
    // change): the kernels' streams alternate between a few arrays, e.g. SpMM's B row and C row.
    // remember() keeps the invariant; invalidation drops a line, so a back-invalidated line never passes
    long lastLine = INVALID;
    int lastSlot;
    int lastSet = -1;
    long prevLine = INVALID;
    int prevSlot;

    TagStore(CacheConfig config) {
        super(config);
        int slots = sets * ways;
        tags = new long[slots];
        Arrays.fill(tags, INVALID);
        sectored = sectorsPerLine > 1;
        sectors = sectored ? new long[2 * slots] : null;
        meta = new byte[slots];
        index = ways > HASH_THRESHOLD ? new LongIntHashMap(slots) : null;
        mruWay = new int[sets];
    }

    /** The way holding {@code line} in {@code set}, or -1. */
    final int tryHit(int set, long line) {
        if (index != null) {
            int slot = index.get(line);
            return slot == LongIntHashMap.MISSING ? -1 : slot - set * ways;
        }
        int base = set * ways;
        for (int w = 0; w < ways; w++) if (tags[base + w] == line) return w;
        return -1;
    }

    /**
     * Enters {@code line}, now the MRU line of {@code set}, into the filter. The older entry stays
     * only if it lies in another set (then it is still its set's MRU line); an entry in the same set
     * is dropped.
     */
    final void remember(long line, int set, int slot) {
        if (set != lastSet) {
            prevLine = lastLine;
            prevSlot = lastSlot;
        }
        lastLine = line;
        lastSlot = slot;
        lastSet = set;
    }

    /** Drops {@code line} from the filter (it is being emptied). */
    final void dropFromFilter(long line) {
        if (line == lastLine) lastLine = INVALID;
        if (line == prevLine) prevLine = INVALID;
    }

    final long validMask(int slot) {
        return sectored ? sectors[2 * slot] : tags[slot] != INVALID ? 1L : 0L;
    }

    final long dirtyMask(int slot) {
        return sectored ? sectors[2 * slot] & sectors[2 * slot + 1] : (meta[slot] & DIRTY) != 0 ? 1L : 0L;
    }

    final void markDirty(int slot, long mask) {
        if (sectored) sectors[2 * slot + 1] |= mask;
        else if (mask != 0) meta[slot] |= (byte) DIRTY;
    }

    final void clearDirty(int slot) {
        if (sectored) sectors[2 * slot + 1] = 0;
        else meta[slot] &= ~DIRTY;
    }

    final void clearSectors(int slot) {
        if (sectored) {
            sectors[2 * slot] = 0;
            sectors[2 * slot + 1] = 0;
        }
    }
}
