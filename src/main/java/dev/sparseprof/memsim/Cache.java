package dev.sparseprof.memsim;

import dev.sparseprof.trace.ArrayRole;
import java.util.Arrays;

/**
 * One cache level, exact against Dinero IV for Dinero's features. The access path reads like the
 * hardware: {@link #tryHit}, then {@link #handleMiss} (victim, eviction, fill), then the fetch from
 * the next level, then the victim's write-back (in Dinero's order: fetch first, then a
 * write-through store, then the victim).
 *
 * <p>State lives in flat arrays indexed by {@code slot = set * ways + way}: the line address
 * ({@code -1} when invalid), valid and dirty sector masks, the array role of the line. Sets with
 * more than {@value #HASH_THRESHOLD} ways find lines through a hash map, so fully associative
 * caches stay O(1). Empty ways are kept on a free list per set; the replacement policy is only
 * asked for a victim when the set is full.
 */
public final class Cache implements MemoryLevel {
    private static final long INVALID = -1L;
    private static final int HASH_THRESHOLD = 16;
    private static final ArrayRole[] ROLES = ArrayRole.values();
    private static final int PREFETCHED = 0x40;
    private static final int ROLE_MASK = 0x3f;
    private static final int DIRTY = 0x80;

    private final CacheConfig config;
    private final int sets;
    private final int ways;
    private final int lineShift;
    private final int lineBytes;
    private final int sectorShift;
    private final int sectorsPerLine;
    private final long allSectors;
    private final boolean setsPowerOfTwo;
    private final int setMask;
    private final long setReciprocal; // ceil(2^64 / sets), for set counts that are not powers of two
    private final boolean writeBack;
    private final boolean writeAllocate;
    private final boolean exclusive;
    private final boolean inclusive;

    private final long[] tags;
    private final boolean sectored;
    private final long[] sectors; // sectored only: [2 * slot] valid mask, [2 * slot + 1] dirty mask
    private final byte[] meta;    // array role (low bits) | PREFETCHED | DIRTY (unsectored lines)
    private final int[] freeWays;
    private final int[] freeCount;
    private final LongIntHashMap index;
    private final ReplacementPolicy policy;
    private final Prefetcher prefetcher;
    private final long[] prefetchScratch = new long[4];
    private final int[] orderScratch;
    private final ThreeCClassifier classifier;
    private final CacheCounters counters;

    private MemoryLevel next;
    private Cache[] uppers = new Cache[0];

    // per set, the way last hit or filled: hitting it again changes no replacement state (where
    // the policy says so), so such hits skip the tag scan and the policy, as Dinero checks its
    // stack top first
    private final boolean mruFastPath;
    private final int[] mruWay;

    // the common configuration's own path (see lruReference): the LRU order packed a set to a
    // long, written here directly; null where any other feature is on
    private final RecencyList lru;
    private boolean nextTakesClean;
    // only a level no cache feeds checks (and keeps) its MRU ways: below, the references are
    // misses from above, rarely to the MRU line, and mruWay would be one more host line per miss
    private boolean lruMruCheck = true;
    // the first level's two-entry filter: two lines, each the MRU line of its set, in two different
    // sets (so a reference to one leaves the other MRU). A repeat of either is an MRU hit (no LRU
    // change): the kernels' streams alternate between a few arrays, e.g. SpMM's B row and C row.
    // remember() keeps the invariant; invalidate() drops a line, so a back-invalidated line never passes
    private long lastLine = INVALID;
    private int lastSlot;
    private int lastSet = -1;
    private long prevLine = INVALID;
    private int prevSlot;
    private final long[] hitCounts; // counters' per (role, write) fetch counts, one load nearer

    // the victim of the last handleMiss, written back after the fetch (per cache: never re-entered)
    private long victimLine = INVALID;
    private long victimDirty;
    private int victimRole;
    private long extraPieces; // references past the first of accesses split at line boundaries

    public Cache(CacheConfig config, MemoryLevel next) {
        this.config = config;
        this.next = next;
        this.sets = config.sets();
        this.ways = config.ways();
        this.lineBytes = config.lineBytes();
        this.lineShift = Integer.numberOfTrailingZeros(lineBytes);
        this.sectorsPerLine = config.sectorsPerLine();
        this.sectorShift = lineShift - Integer.numberOfTrailingZeros(sectorsPerLine);
        this.allSectors = sectorsPerLine == 64 ? -1L : (1L << sectorsPerLine) - 1;
        this.setsPowerOfTwo = Integer.bitCount(sets) == 1;
        this.setMask = sets - 1;
        this.setReciprocal = Long.divideUnsigned(-1L, sets) + 1;
        this.writeBack = config.writePolicy().writeBack();
        this.writeAllocate = config.writePolicy().writeAllocate();
        this.exclusive = config.inclusion() == Inclusion.EXCLUSIVE;
        this.inclusive = config.inclusion() == Inclusion.INCLUSIVE;
        int slots = sets * ways;
        tags = new long[slots];
        Arrays.fill(tags, INVALID);
        sectored = sectorsPerLine > 1;
        sectors = sectored ? new long[2 * slots] : null;
        meta = new byte[slots];
        freeWays = new int[slots];
        freeCount = new int[sets];
        for (int w = 0; w < ways; w++) freeWays[w] = ways - 1 - w; // way 0 is taken first
        for (int s = 1; s < sets; s++) System.arraycopy(freeWays, 0, freeWays, s * ways, ways); // a GPU L2's 25600 sets: no loop to compile
        Arrays.fill(freeCount, ways);
        index = ways > HASH_THRESHOLD ? new LongIntHashMap(slots) : null;
        policy = ReplacementPolicies.create(config.policy(), sets, ways, config.seed());
        prefetcher = Prefetchers.create(config.prefetcher());
        orderScratch = new int[ways];
        classifier = config.classifyMisses() ? new ThreeCClassifier(config.lines()) : null;
        counters = new CacheCounters(config.name(), config.classifyMisses());
        hitCounts = counters.fetchCounts();
        mruFastPath = prefetcher == null && classifier == null && policy.repeatedHitIsNoOp();
        mruWay = new int[sets];
        lru = plainLruList(policy);
        nextTakesClean = next.takesCleanVictims();
    }

    /** The LRU order when this level is the plain case {@link #lruReference} serves, else null. */
    private RecencyList plainLruList(ReplacementPolicy p) {
        if (!(p instanceof RecencyPolicy rp) || rp.lruList() == null || !rp.lruList().packed()) return null;
        boolean plain = !sectored && index == null && prefetcher == null && classifier == null && !exclusive && !inclusive
                && writeBack && writeAllocate;
        return plain ? rp.lruList() : null;
    }

    public CacheConfig config() {
        return config;
    }

    public String name() {
        return config.name();
    }

    void setNext(MemoryLevel next) {
        this.next = next;
        this.nextTakesClean = next.takesCleanVictims();
    }

    /** Registers a level directly above, for back-invalidation when this level is inclusive. */
    void addUpper(Cache upper) {
        uppers = Arrays.copyOf(uppers, uppers.length + 1);
        uppers[uppers.length - 1] = upper;
        lruMruCheck = false;
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

    private int setOf(long line) {
        return setsPowerOfTwo ? (int) line & setMask : remainder(line, sets, setReciprocal);
    }

    /**
     * {@code line mod sets} by multiplications for lines below 2^32 (Lemire, Kaser and Kurz, "Faster
     * remainder by direct computation", 2019: exact for every 32-bit dividend and divisor), by a
     * division above. {@code reciprocal} is {@code ceil(2^64 / sets)}.
     */
    static int remainder(long line, int sets, long reciprocal) {
        if ((line >>> 32) != 0) return (int) Long.remainderUnsigned(line, sets);
        return (int) Math.unsignedMultiplyHigh(reciprocal * line, sets);
    }

    private long sectorMask(long address, int sizeBytes) {
        if (sectorsPerLine == 1) return 1L;
        int first = (int) (address >>> sectorShift) & (sectorsPerLine - 1);
        int last = (int) ((address + sizeBytes - 1) >>> sectorShift) & (sectorsPerLine - 1);
        long upTo = last == 63 ? -1L : (2L << last) - 1;
        return upTo & -(1L << first);
    }

    // Sector state: sectored lines keep valid and dirty masks; an unsectored line is valid when its
    // tag is and keeps its dirty bit in meta, so it touches one array less per reference.

    private long validMask(int slot) {
        return sectored ? sectors[2 * slot] : tags[slot] != INVALID ? 1L : 0L;
    }

    private long dirtyMask(int slot) {
        return sectored ? sectors[2 * slot] & sectors[2 * slot + 1] : (meta[slot] & DIRTY) != 0 ? 1L : 0L;
    }

    private void markDirty(int slot, long mask) {
        if (sectored) sectors[2 * slot + 1] |= mask;
        else if (mask != 0) meta[slot] |= (byte) DIRTY;
    }

    private void clearDirty(int slot) {
        if (sectored) sectors[2 * slot + 1] = 0;
        else meta[slot] &= ~DIRTY;
    }

    private void clearSectors(int slot) {
        if (sectored) {
            sectors[2 * slot] = 0;
            sectors[2 * slot + 1] = 0;
        }
    }

    /** The way holding {@code line} in {@code set}, or -1. */
    private int tryHit(int set, long line) {
        if (index != null) {
            int slot = index.get(line);
            return slot == LongIntHashMap.MISSING ? -1 : slot - set * ways;
        }
        int base = set * ways;
        for (int w = 0; w < ways; w++) if (tags[base + w] == line) return w;
        return -1;
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

    /**
     * Enters {@code line}, now the MRU line of {@code set}, into the filter. The older entry stays
     * only if it lies in another set (then it is still its set's MRU line); an entry in the same set
     * is dropped.
     */
    private void remember(long line, int set, int slot) {
        if (set != lastSet) {
            prevLine = lastLine;
            prevSlot = lastSlot;
        }
        lastLine = line;
        lastSlot = slot;
        lastSet = set;
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
            if (next.fetch(line << lineShift, lineBytes, ROLES[role]) && tags[slot] == line) meta[slot] |= (byte) DIRTY;
        }
        boolean victimDirty = (victimMeta & DIRTY) != 0;
        if (victim != INVALID && (victimDirty || nextTakesClean)) writeBackLine(victim, victimDirty ? 1L : 0L, victimMeta & ROLE_MASK);
    }

    private void writeThrough(long address, int sizeBytes, int role) {
        counters.bytesToBelow += sizeBytes;
        next.write(address, sizeBytes, ROLES[role]);
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

    /**
     * Makes room for {@code line} in {@code set}: an empty way if there is one, else the policy's
     * victim, which is evicted (back-invalidating the levels above when inclusive) and remembered
     * in {@code victimLine/victimDirty/victimRole} for the write-back after the fetch.
     */
    private int handleMiss(int set, long line, int role) {
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

    /** Sends an evicted line down: every line to an exclusive level, dirty sector runs otherwise (highest run first, as Dinero). */
    private void writeBackLine(long line, long dirtyMask, int role) {
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

    /** Empties a way without refill. */
    private void invalidate(int set, int way) {
        int slot = set * ways + way;
        if (index != null) index.remove(tags[slot]);
        if (tags[slot] == lastLine) lastLine = INVALID;
        if (tags[slot] == prevLine) prevLine = INVALID;
        tags[slot] = INVALID;
        clearSectors(slot);
        meta[slot] = 0;
        policy.onInvalidate(set, way);
        freeWays[set * ways + freeCount[set]++] = way;
    }

    /** Back-invalidates {@code [address, address + bytes)} here and above; true if any copy was dirty. */
    boolean backInvalidate(long address, int bytes) {
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

    private boolean backInvalidateAbove(long address, int bytes) {
        boolean dirty = false;
        for (Cache u : uppers) dirty |= u.backInvalidate(address, bytes);
        return dirty;
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

    // ---- whole-cache operations ----

    /**
     * Writes every dirty line back (lines stay valid and become clean), in Dinero's order: sets
     * from last to first, in each set from the next victim to the most protected way.
     */
    public void flush() {
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
    public void copyBack(long address, int bytes) {
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

    /** Drops the lines of {@code [address, address + bytes)} without writing them back (Dinero's invalidate record). */
    public void invalidateRange(long address, int bytes) {
        for (long line = address >>> lineShift; line <= (address + bytes - 1) >>> lineShift; line++) {
            int set = setOf(line);
            int way = tryHit(set, line);
            if (way >= 0) invalidate(set, way);
        }
    }
}
