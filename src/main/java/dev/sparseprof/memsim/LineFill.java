package dev.sparseprof.memsim;

import java.util.Arrays;

/**
 * The third layer of a cache level (see {@link Cache}): where a new line goes, which line leaves,
 * and the emptying of ways (invalidation, inclusive back-invalidation of the levels above).
 *
 * <p>Contract: empty ways are kept on a free list per set (way 0 taken first); the replacement
 * policy is asked for a victim only when the set is full, and told of every fill and invalidation.
 * {@link #handleMiss} installs the line (clean, sectors cleared, role set, index and
 * {@code mruWay} updated) and leaves the evicted line in {@code victimLine/victimDirty/victimRole}
 * ({@code victimLine == INVALID} when a free way was used) for the caller to write back after its
 * fetch, in Dinero's order. The counts live in {@link CacheCounters}, made here, the first layer
 * that counts.
 */
abstract sealed class LineFill extends TagStore permits WritePath {
    final int[] freeWays;
    final int[] freeCount;
    final ReplacementPolicy policy;
    final boolean inclusive;
    final CacheCounters counters;
    private Cache[] uppers = new Cache[0];

    // the victim of the last handleMiss, written back after the fetch (per cache: never re-entered)
    long victimLine = INVALID;
    long victimDirty;
    int victimRole;

    LineFill(CacheConfig config) {
        super(config);
        int slots = sets * ways;
        freeWays = new int[slots];
        freeCount = new int[sets];
        for (int w = 0; w < ways; w++) freeWays[w] = ways - 1 - w; // way 0 is taken first
        for (int s = 1; s < sets; s++) System.arraycopy(freeWays, 0, freeWays, s * ways, ways); // a GPU L2's 25600 sets: no loop to compile
        Arrays.fill(freeCount, ways);
        policy = ReplacementPolicies.create(config.policy(), sets, ways, config.seed());
        inclusive = config.inclusion() == Inclusion.INCLUSIVE;
        counters = new CacheCounters(config.name(), config.classifyMisses());
    }

    /** Registers a level directly above, for back-invalidation when this level is inclusive. */
    final void addUpper(Cache upper) {
        uppers = Arrays.copyOf(uppers, uppers.length + 1);
        uppers[uppers.length - 1] = upper;
        lruMruCheck = false;
    }

    /**
     * Makes room for {@code line} in {@code set}: an empty way if there is one, else the policy's
     * victim, which is evicted (back-invalidating the levels above when inclusive) and remembered
     * in {@code victimLine/victimDirty/victimRole} for the write-back after the fetch.
     */
    final int handleMiss(int set, long line, int role) {
        int way;
        victimLine = INVALID;
        if (freeCount[set] > 0) {
            way = freeWays[set * ways + --freeCount[set]];
        } else {
            way = policy.victim(set);
            int slot = set * ways + way;
            victimLine = tags[slot];
            victimDirty = dirtyMask(slot);
            victimRole = meta[slot] & ROLE_MASK;
            if (index != null) index.remove(victimLine);
            if (inclusive && backInvalidateAbove(victimLine << lineShift, lineBytes)) victimDirty = allSectors;
        }
        int slot = set * ways + way;
        tags[slot] = line;
        clearSectors(slot);
        meta[slot] = (byte) role;
        if (index != null) index.put(line, slot);
        policy.onFill(set, way);
        mruWay[set] = way;
        return way;
    }

    /** Empties a way without refill. */
    final void invalidate(int set, int way) {
        int slot = set * ways + way;
        if (index != null) index.remove(tags[slot]);
        dropFromFilter(tags[slot]);
        tags[slot] = INVALID;
        clearSectors(slot);
        meta[slot] = 0;
        policy.onInvalidate(set, way);
        freeWays[set * ways + freeCount[set]++] = way;
    }

    /** Back-invalidates {@code [address, address + bytes)} here and above; true if any copy was dirty. */
    final boolean backInvalidate(long address, int bytes) {
        boolean dirty = false;
        for (long line = address >>> lineShift; line <= (address + bytes - 1) >>> lineShift; line++) {
            int set = setOf(line);
            int way = tryHit(set, line);
            if (way < 0) continue;
            int slot = set * ways + way;
            dirty |= dirtyMask(slot) != 0;
            counters.backInvalidations++;
            invalidate(set, way);
        }
        return backInvalidateAbove(address, bytes) | dirty;
    }

    final boolean backInvalidateAbove(long address, int bytes) {
        boolean dirty = false;
        for (Cache u : uppers) dirty |= u.backInvalidate(address, bytes);
        return dirty;
    }

    /** Drops the lines of {@code [address, address + bytes)} without writing them back (Dinero's invalidate record). */
    public final void invalidateRange(long address, int bytes) {
        for (long line = address >>> lineShift; line <= (address + bytes - 1) >>> lineShift; line++) {
            int set = setOf(line);
            int way = tryHit(set, line);
            if (way >= 0) invalidate(set, way);
        }
    }
}
