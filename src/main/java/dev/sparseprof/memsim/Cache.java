package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;

/**
 * One cache level, exact against Dinero IV for Dinero's features. The class is the last of five
 * layers, split where the hardware splits: {@link CacheGeometry} (address to line, set, sectors),
 * {@link TagStore} (tags, line state, lookup, the MRU filter), {@link LineFill} (free ways, victim
 * choice, fill, invalidation), {@link WritePath} (write-through, write-back of victims, flushes), and
 * here the access paths that sequence them; the counts are {@link CacheCounters}. The layers are one
 * object (each file is one layer's state and operations), so the hot path reads its arrays with no
 * extra load.
 *
 * <p>The access path reads like the hardware: {@link #tryHit}, then {@link #handleMiss} (victim,
 * eviction, fill), then the fetch from the next level, then the victim's write-back (in Dinero's
 * order: fetch first, then a write-through store, then the victim). The common configuration (LRU,
 * write-back + write-allocate, whole lines) has its own short path, {@link #lruReference}.
 *
 * <p>Contract: {@link #access} takes a demand access of any size and splits it at line boundaries;
 * {@link MemoryLevel}'s fetch, write and acceptVictim are the requests from the level above. The
 * counts and the requests sent below, and their order, are Dinero IV's for every configuration
 * Dinero has.
 */
public final class Cache extends WritePath implements MemoryLevel {
    private final boolean exclusive;
    private final Prefetcher prefetcher;
    private final long[] prefetchScratch = new long[4];
    private final ThreeCClassifier classifier;

    // MRU hits (where the policy says they change nothing) skip the tag scan and the policy
    private final boolean mruFastPath;

    // the common configuration's own path (see lruReference): the LRU order packed a set to a
    // long, written here directly; null where any other feature is on
    private final RecencyList lru;
    private final long[] hitCounts; // counters' per (role, write) fetch counts, one load nearer
    // the next level when it is a plain-LRU cache of the same line size: lruMiss fetches from it by
    // lruLine(0, ...) and writes its dirty victims to it by lruLine(1, ...), what its fetch (write) ->
    // access -> reference would do, without the interface calls
    private final Cache nextLru;
    private long extraPieces; // references past the first of accesses split at line boundaries

    public Cache(CacheConfig config, MemoryLevel next) {
        super(config, next);
        this.exclusive = config.inclusion() == Inclusion.EXCLUSIVE;
        prefetcher = Prefetchers.create(config.prefetcher());
        classifier = config.classifyMisses() ? new ThreeCClassifier(config.lines()) : null;
        hitCounts = counters.fetchCounts();
        mruFastPath = prefetcher == null && classifier == null && policy.repeatedHitIsNoOp();
        lru = plainLruList(policy);
        nextLru = lru != null && next instanceof Cache n && n.lru != null && n.lineBytes == lineBytes ? n : null;
    }

    /** The LRU order when this level is the plain case {@link #lruReference} serves, else null. */
    private RecencyList plainLruList(ReplacementPolicy p) {
        if (!(p instanceof RecencyPolicy rp) || rp.lruList() == null || !rp.lruList().packed()) return null;
        boolean plain = !sectored && index == null && prefetcher == null && classifier == null && !exclusive && !inclusive
                && writeBack && writeAllocate;
        return plain ? rp.lruList() : null;
    }

    public LevelStats snapshot() {
        return counters.snapshot();
    }

    /**
     * The accesses this level was given through {@link #access}, each once however many lines it
     * spans: for a first level, the core's reads and writes.
     */
    long accessesTaken() {
        return counters.fetchTotal() - extraPieces;
    }

    /**
     * Whether every byte of {@code [address, address + sizeBytes)} (within one line) is held here,
     * valid in its sectors; a look at the tags that changes no state and counts nothing (for a
     * caller that routes a request by where its line lies, as a partitioned L2 does).
     */
    public boolean holds(long address, int sizeBytes) {
        long line = address >>> lineShift;
        int way = tryHit(setOf(line), line);
        if (way < 0) return false;
        long need = sectorMask(address, sizeBytes);
        return (validMask(setOf(line) * ways + way) & need) == need;
    }

    /** A demand access from the core (or a reference from above), split at this level's line boundaries. */
    public void access(boolean write, long address, int sizeBytes, ArrayRole role) {
        int w = write ? 1 : 0;
        int r = role.ordinal();
        long last = address + sizeBytes - 1;
        if (((address ^ last) >>> lineShift) == 0) {
            reference(w, address, sizeBytes, r);
            return;
        }
        long a = address;
        while (true) {
            long lineEnd = (a | (lineBytes - 1)) + 1;
            if (last - lineEnd < 0) {
                reference(w, a, (int) (last - a + 1), r);
                return;
            }
            reference(w, a, (int) (lineEnd - a), r);
            extraPieces++;
            a = lineEnd;
        }
    }

    @Override
    public boolean fetch(long address, int sizeBytes, ArrayRole role) {
        if (exclusive) return exclusiveRange(EXCLUSIVE_FETCH, address, sizeBytes, false, role.ordinal());
        access(false, address, sizeBytes, role);
        return false;
    }

    @Override
    public void write(long address, int sizeBytes, ArrayRole role) {
        if (exclusive) exclusiveRange(EXCLUSIVE_WRITE, address, sizeBytes, true, role.ordinal());
        else access(true, address, sizeBytes, role);
    }

    @Override
    public void acceptVictim(long address, int sizeBytes, boolean dirty, ArrayRole role) {
        if (exclusive) exclusiveRange(EXCLUSIVE_VICTIM, address, sizeBytes, dirty, role.ordinal());
        else if (dirty) access(true, address, sizeBytes, role);
    }

    private static final int EXCLUSIVE_FETCH = 0;
    private static final int EXCLUSIVE_WRITE = 1;
    private static final int EXCLUSIVE_VICTIM = 2;

    /** An exclusive level's operation over a range, line by line; for fetches, true if any line came up dirty. */
    private boolean exclusiveRange(int op, long address, int sizeBytes, boolean dirty, int role) {
        boolean dirtyUp = false;
        long last = address + sizeBytes - 1;
        long a = address;
        while (true) {
            long lineEnd = (a | (lineBytes - 1)) + 1;
            boolean lastPiece = last - lineEnd < 0;
            int piece = (int) ((lastPiece ? last + 1 : lineEnd) - a);
            switch (op) {
                case EXCLUSIVE_FETCH -> dirtyUp |= exclusiveFetch(a, piece, role);
                case EXCLUSIVE_WRITE -> exclusiveWrite(a, piece, role);
                default -> insertVictim(a, piece, dirty, role);
            }
            if (lastPiece) return dirtyUp;
            a = lineEnd;
        }
    }

    @Override
    public boolean takesCleanVictims() {
        return exclusive;
    }

    /**
     * One reference within one line: Dinero's d4ref. A hit on the set's MRU line is served here (a
     * small method the JIT inlines into the caller); everything else goes through {@link #lookup}.
     */
    private void reference(int write, long address, int sizeBytes, int role) {
        long line = address >>> lineShift;
        if (lru != null) {
            if (line == lastLine || line == prevLine) {
                hitCounts[2 * role + write]++;
                if (write != 0) meta[line == lastLine ? lastSlot : prevSlot] |= (byte) DIRTY;
                return;
            }
            lruReference(write, sizeBytes, role, line, setOf(line));
            return;
        }
        int set = setOf(line);
        long touched = sectorMask(address, sizeBytes);
        if (mruFastPath) {
            int mru = set * ways + mruWay[set];
            if (tags[mru] == line && (validMask(mru) & touched) == touched) {
                counters.reference(write, role, false, false);
                if (write != 0) {
                    if (writeBack) markDirty(mru, touched);
                    else writeThrough(address, sizeBytes, role);
                }
                return;
            }
        }
        lookup(write, address, sizeBytes, role, line, set, touched);
    }

    /**
     * A plain-LRU level's {@link #fetch} ({@code write} 0) or {@link #write} (1: a victim) of one
     * whole line from a level above with the same line size: exactly what fetch or write,
     * {@link #access} (one piece) and {@link #reference} do for it.
     */
    private void lruLine(int write, long line, int role) {
        if (line == lastLine || line == prevLine) {
            hitCounts[2 * role + write]++;
            if (write != 0) meta[line == lastLine ? lastSlot : prevSlot] |= (byte) DIRTY;
            return;
        }
        lruReference(write, lineBytes, role, line, setOf(line));
    }

    /**
     * The common configuration (LRU up to {@value #HASH_THRESHOLD} ways, write-back +
     * write-allocate, whole lines, no prefetch, 3C or inclusion) in a few array operations: the
     * set's MRU way (first level only), then one scan of its tags; a hit moves the way to the front
     * of the set's packed order; a miss fills the way at its last position (an empty way if the set
     * has one, else the least recent), so neither the policy nor the free list is called. The counts and the requests sent below, and their order, are
     * those of {@link #lookup}.
     */
    private void lruReference(int write, int sizeBytes, int role, long line, int set) {
        int base = set * ways;
        if (lruMruCheck) {
            int mru = base + mruWay[set];
            if (tags[mru] == line) {
                hitCounts[2 * role + write]++;
                if (write != 0) meta[mru] |= (byte) DIRTY;
                remember(line, set, mru);
                return;
            }
        }
        // the whole set is scanned without an early exit: where the line sits is as random as the
        // trace, and a branch per way would mispredict once per reference
        int way = -1;
        for (int w = 0; w < ways; w++) way = tags[base + w] == line ? w : way;
        if (way < 0) {
            lruMiss(write, sizeBytes, role, line, set);
            return;
        }
        int slot = base + way;
        hitCounts[2 * role + write]++;
        lru.touch(set, way);
        if (lruMruCheck) {
            mruWay[set] = way;
            remember(line, set, slot);
        }
        if (write != 0) meta[slot] |= (byte) DIRTY;
    }

    /** {@link #lruReference}'s miss, apart so that the hit path stays small enough to inline. */
    private void lruMiss(int write, int sizeBytes, int role, long line, int set) {
        int base = set * ways;
        counters.blockMiss(write, role);
        int way = lru.lastWay(set);
        int slot = base + way;
        long victim = tags[slot];
        int victimMeta = meta[slot];
        if (victim == INVALID) freeCount[set]--; // the free list's ways go unused here; its count stays right for invalidate()
        tags[slot] = line;
        meta[slot] = (byte) (write != 0 ? role | DIRTY : role);
        lru.fillLast(set, victim == INVALID);
        if (lruMruCheck) {
            mruWay[set] = way;
            remember(line, set, slot); // before the fetch: a back-invalidation of this line during it clears the filter
        }
        if (write == 0 || sizeBytes != lineBytes) {
            counters.bytesFromBelow += lineBytes;
            if (nextLru != null) nextLru.lruLine(0, line, role); // a plain-LRU level never returns dirty
            else if (next.fetch(line << lineShift, lineBytes, ROLES[role]) && tags[slot] == line) meta[slot] |= (byte) DIRTY;
        }
        boolean victimDirty = (victimMeta & DIRTY) != 0;
        if (victim == INVALID || !(victimDirty || nextTakesClean)) return;
        if (nextLru != null) { // writeBackLine's one run of a whole dirty line, to a level that takes no clean victims
            counters.writeBack(victimMeta & ROLE_MASK, lineBytes);
            nextLru.lruLine(1, victim, victimMeta & ROLE_MASK);
        } else writeBackLine(victim, victimDirty ? 1L : 0L, victimMeta & ROLE_MASK);
    }

    /** The full path: tag lookup, then hit or {@link #handleMiss}, fetch, write-through, victim write-back, prefetch. */
    private void lookup(int write, long address, int sizeBytes, int role, long line, int set, long touched) {
        int way = tryHit(set, line);
        boolean blockMiss = way < 0;
        int slot = set * ways + way;
        boolean miss = blockMiss || (validMask(slot) & touched) != touched;
        counters.reference(write, role, miss, blockMiss);
        if (classifier != null) classifier.reference(line, miss, counters);

        boolean isWrite = write != 0;
        boolean allocate = !isWrite || !blockMiss || writeAllocate;
        boolean dirtyHere = false;
        boolean haveVictim = false;
        if (allocate) {
            if (blockMiss) {
                way = handleMiss(set, line, role);
                slot = set * ways + way;
                haveVictim = victimLine != INVALID;
            } else {
                policy.onHit(set, way);
                mruWay[set] = way;
                if ((meta[slot] & PREFETCHED) != 0) {
                    meta[slot] &= ~PREFETCHED;
                    counters.prefetchesUseful++;
                }
            }
            if (sectored) sectors[2 * slot] |= touched;
            if (isWrite && writeBack) {
                markDirty(slot, touched);
                dirtyHere = true;
            }
        }
        long saveVictim = victimLine;
        long saveDirty = victimDirty;
        int saveRole = victimRole;
        if (miss && (!isWrite || (writeAllocate && sizeBytes != Long.bitCount(touched) << sectorShift))) {
            int fetchBytes = Long.bitCount(touched) << sectorShift;
            long fetchAddress = (line << lineShift) + ((long) Long.numberOfTrailingZeros(touched) << sectorShift);
            counters.bytesFromBelow += fetchBytes;
            if (next.fetch(fetchAddress, fetchBytes, ROLES[role]) && tags[slot] == line) markDirty(slot, touched);
        }
        if (isWrite && !dirtyHere) writeThrough(address, sizeBytes, role);
        if (haveVictim) writeBackLine(saveVictim, saveDirty, saveRole);
        if (prefetcher != null && !isWrite) prefetch(line, miss, role);
    }

    private void prefetch(long line, boolean miss, int role) {
        int n = prefetcher.candidates(line, miss, ROLES[role], prefetchScratch);
        for (int i = 0; i < n; i++) {
            long p = prefetchScratch[i];
            if (p < 0) continue;
            int set = setOf(p);
            if (tryHit(set, p) >= 0) continue;
            counters.prefetchesIssued++;
            int way = handleMiss(set, p, role);
            int slot = set * ways + way;
            if (sectored) sectors[2 * slot] = allSectors;
            meta[slot] |= PREFETCHED;
            long v = victimLine;
            long d = victimDirty;
            int vr = victimRole;
            counters.bytesFromBelow += lineBytes;
            next.fetch(p << lineShift, lineBytes, ROLES[role]);
            if (v != INVALID) writeBackLine(v, d, vr);
        }
    }

    // ---- exclusive (victim) level: filled by evictions from above, hits move the line up ----

    private boolean exclusiveFetch(long address, int sizeBytes, int role) {
        long line = address >>> lineShift;
        int set = setOf(line);
        int way = tryHit(set, line);
        boolean miss = way < 0;
        counters.reference(0, role, miss, miss);
        if (classifier != null) classifier.reference(line, miss, counters);
        if (!miss) {
            int slot = set * ways + way;
            boolean dirty = dirtyMask(slot) != 0;
            invalidate(set, way);
            return dirty;
        }
        counters.bytesFromBelow += sizeBytes;
        return next.fetch(address, sizeBytes, ROLES[role]);
    }

    private void exclusiveWrite(long address, int sizeBytes, int role) {
        long line = address >>> lineShift;
        int set = setOf(line);
        int way = tryHit(set, line);
        counters.reference(1, role, way < 0, way < 0);
        if (way >= 0) {
            int slot = set * ways + way;
            markDirty(slot, sectorMask(address, sizeBytes) & validMask(slot));
            policy.onHit(set, way);
            return;
        }
        counters.bytesToBelow += sizeBytes;
        next.write(address, sizeBytes, ROLES[role]);
    }

    private void insertVictim(long address, int sizeBytes, boolean dirty, int role) {
        counters.victimsIn++;
        long line = address >>> lineShift;
        int set = setOf(line);
        int way = tryHit(set, line);
        if (way < 0) {
            way = handleMiss(set, line, role);
            int slot = set * ways + way;
            if (sectored) sectors[2 * slot] = allSectors;
            if (dirty) markDirty(slot, allSectors);
            if (victimLine != INVALID) writeBackLine(victimLine, victimDirty, victimRole);
        } else {
            if (dirty) markDirty(set * ways + way, validMask(set * ways + way));
            policy.onHit(set, way);
        }
    }
}
