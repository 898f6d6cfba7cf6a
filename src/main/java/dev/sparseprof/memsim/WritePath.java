package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/**
 * The fourth layer of a cache level (see {@link Cache}): the write policy and everything this level
 * sends down that is not a fetch: write-through stores, the write-back of evicted dirty lines (or
 * of every line, to an exclusive level below), and the whole-cache write-backs ({@link #flush},
 * {@link #copyBack}).
 *
 * <p>Contract: with write-back, a write marks the touched sectors dirty and sends nothing; with
 * write-through, every write goes down as it came ({@link #writeThrough}). An evicted line goes
 * down as its dirty sector runs, highest run first, as Dinero writes them; a level that takes
 * clean victims (exclusive) gets the whole line with its dirty flag. Each write-back counts in
 * {@link CacheCounters#writeBack}.
 */
abstract sealed class WritePath extends LineFill permits Cache {
    static final ArrayRole[] ROLES = ArrayRole.values();

    final boolean writeBack;
    final boolean writeAllocate;
    final MemoryLevel next;
    final boolean nextTakesClean;
    private final int[] orderScratch;

    WritePath(CacheConfig config, MemoryLevel next) {
        super(config);
        this.next = next;
        this.writeBack = config.writePolicy().writeBack();
        this.writeAllocate = config.writePolicy().writeAllocate();
        this.nextTakesClean = next.takesCleanVictims();
        this.orderScratch = new int[ways];
    }

    final void writeThrough(long address, int sizeBytes, int role) {
        counters.bytesToBelow += sizeBytes;
        next.write(address, sizeBytes, ROLES[role]);
    }

    /** Sends an evicted line down: every line to an exclusive level, dirty sector runs otherwise (highest run first, as Dinero). */
    final void writeBackLine(long line, long dirtyMask, int role) {
        long base = line << lineShift;
        if (next.takesCleanVictims()) {
            if (dirtyMask != 0) counters.writeBack(role, lineBytes);
            next.acceptVictim(base, lineBytes, dirtyMask != 0, ROLES[role]);
            return;
        }
        long m = dirtyMask;
        while (m != 0) {
            int hi = 63 - Long.numberOfLeadingZeros(m);
            int lo = hi;
            while (lo > 0 && ((m >>> (lo - 1)) & 1) != 0) lo--;
            m &= ~(((hi == 63) ? -1L : (2L << hi) - 1) & -(1L << lo));
            int bytes = (hi - lo + 1) << sectorShift;
            counters.writeBack(role, bytes);
            next.write(base + ((long) lo << sectorShift), bytes, ROLES[role]);
        }
    }

    /**
     * Writes every dirty line back (lines stay valid and become clean), in Dinero's order: sets
     * from last to first, in each set from the next victim to the most protected way.
     */
    public final void flush() {
        for (int set = sets - 1; set >= 0; set--) {
            if (freeCount[set] == ways) continue; // no valid line: nothing to write (a GPU sample leaves most sets of its L2 and SMs empty)
            int n = policy.evictionOrder(set, orderScratch);
            for (int i = 0; i < n; i++) {
                int slot = set * ways + orderScratch[i];
                long d = dirtyMask(slot);
                if (tags[slot] == INVALID || d == 0) continue;
                clearDirty(slot);
                writeBackLine(tags[slot], d, meta[slot] & ROLE_MASK);
            }
        }
    }

    /** Writes back the lines of {@code [address, address + bytes)} if dirty (Dinero's copy-back record). */
    public final void copyBack(long address, int bytes) {
        for (long line = address >>> lineShift; line <= (address + bytes - 1) >>> lineShift; line++) {
            int set = setOf(line);
            int way = tryHit(set, line);
            if (way < 0) continue;
            int slot = set * ways + way;
            long d = dirtyMask(slot);
            if (d == 0) continue;
            clearDirty(slot);
            writeBackLine(line, d, meta[slot] & ROLE_MASK);
        }
    }
}
