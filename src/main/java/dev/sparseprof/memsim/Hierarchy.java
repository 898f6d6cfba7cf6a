package dev.sparseprof.memsim;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceChunk;
import dev.sparseprof.trace.TraceSink;
import java.util.ArrayList;
import java.util.List;

/**
 * Caches wired per {@link HierarchyConfig} over a {@link Memory}; as a {@link TraceSink} it is
 * core 0, {@link #core(int)} gives the others. Reads, instruction fetches and misc records read;
 * writes write; copy-back and invalidate records act on every level, as in Dinero.
 * {@link #close()} writes back every dirty line, level by level from the core outwards (Dinero's
 * end-of-trace copy-back), after which {@link #snapshot()} gives the final counts.
 */
public final class Hierarchy implements TraceSink {
    private final HierarchyConfig config;
    private final Memory memory;
    private final Cache[][] byLevel; // [level][instance]: private levels have one instance per core
    private final CoreSink[] cores;
    private final CoreSink core0; // cores[0], one load nearer for the single-core push
    private final Cache l1First; // core0's first level: reads and writes outside a warm-up window go straight to it
    private boolean closed;
    // accesses are not counted one by one (a store per access on the hot path): they are the first
    // levels' references less the extra pieces of split accesses, plus the records no first level
    // counts; only while a warm-up window is open does each access count towards its end
    private long otherRecords; // copy-back and invalidate records
    private long warmupAccesses = -1;
    private boolean warmupOpen;
    private long seen; // accesses so far, while warmupOpen
    private HierarchyStats warm;

    public Hierarchy(HierarchyConfig config) {
        this.config = config;
        this.memory = new Memory(config.dram());
        int n = config.levels().size();
        byLevel = new Cache[n][];
        Cache[] belowCaches = null; // the level built before this one (the next one out), null at the bottom
        for (int lvl = n - 1; lvl >= 0; lvl--) {
            CacheConfig c = config.levels().get(lvl);
            boolean shared = lvl >= config.firstSharedLevel() || config.cores() == 1;
            int copies = shared ? 1 : config.cores();
            byLevel[lvl] = new Cache[copies];
            for (int i = 0; i < copies; i++) {
                String name = copies == 1 ? c.name() : c.name() + "#" + i;
                Cache below = belowCaches == null ? null : belowCaches[belowCaches.length == 1 ? 0 : i];
                Cache cache = new Cache(c.withName(name).withSeed(c.seed() + i), below == null ? memory : below);
                byLevel[lvl][i] = cache;
                if (below != null) below.addUpper(cache);
            }
            belowCaches = byLevel[lvl];
        }
        cores = new CoreSink[config.cores()];
        for (int i = 0; i < cores.length; i++) cores[i] = new CoreSink(byLevel[0][byLevel[0].length == 1 ? 0 : i]);
        core0 = cores[0];
        l1First = core0.l1;
    }

    /**
     * Marks the first {@code n} accesses (over all cores) as warm-up: {@link #measured()} leaves
     * them out. Call before replaying.
     */
    public void setWarmup(long n) {
        if (n < 0) throw new IllegalArgumentException("warm-up " + n);
        warmupAccesses = n;
        if (n == 0) {
            warm = snapshot();
            return;
        }
        seen = accesses();
        warmupOpen = seen <= n;
    }

    /** The accesses so far, over all cores: each access once, however many lines it spans. */
    private long accesses() {
        long n = otherRecords;
        for (Cache l1 : byLevel[0]) n += l1.accessesTaken();
        return n;
    }

    /** The final counts less the warm-up window (all counts when there was none). */
    public HierarchyStats measured() {
        HierarchyStats now = snapshot();
        return warm == null ? now : now.minus(warm);
    }

    public HierarchyConfig config() {
        return config;
    }

    /** The sink of core {@code i}'s accesses. */
    public TraceSink core(int i) {
        return cores[i];
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        if (!warmupOpen) { // what core0.access does then, without its hop through the core and back
            if (kind == AccessKind.READ) {
                l1First.access(false, address, sizeBytes, role);
                return;
            }
            if (kind == AccessKind.WRITE) {
                l1First.access(true, address, sizeBytes, role);
                return;
            }
        }
        core0.access(kind, address, sizeBytes, role);
    }

    @Override
    public void accessAll(TraceChunk chunk, int from, int to) {
        core0.accessAll(chunk, from, to);
    }

    /** Ends the trace: the final write-back of dirty lines, level by level. Idempotent. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (warm == null && warmupAccesses >= 0 && accesses() >= warmupAccesses) warm = snapshot();
        for (Cache[] level : byLevel) for (Cache c : level) c.flush();
    }

    public HierarchyStats snapshot() {
        List<LevelStats> levels = new ArrayList<>();
        for (Cache[] level : byLevel) for (Cache c : level) levels.add(c.snapshot());
        return new HierarchyStats(accesses(), levels, memory.snapshot());
    }

    private void copyBack(long address, int sizeBytes) {
        for (Cache[] level : byLevel) for (Cache c : level) c.copyBack(address, sizeBytes);
    }

    private void invalidate(long address, int sizeBytes) {
        for (Cache[] level : byLevel) for (Cache c : level) c.invalidateRange(address, sizeBytes);
    }

    /** One core's entry into its first-level cache. */
    private final class CoreSink implements TraceSink {
        private final Cache l1;

        CoreSink(Cache l1) {
            this.l1 = l1;
        }

        @Override
        public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
            if (warmupOpen) countTowardsWarmup();
            if (kind == AccessKind.READ) l1.access(false, address, sizeBytes, role);
            else if (kind == AccessKind.WRITE) l1.access(true, address, sizeBytes, role);
            else if (kind == AccessKind.COPY_BACK) {
                otherRecords++;
                copyBack(address, sizeBytes);
            } else if (kind == AccessKind.INVALIDATE) {
                otherRecords++;
                invalidate(address, sizeBytes);
            } else l1.access(false, address, sizeBytes, role); // instruction fetch, misc: reads
        }

        /** Before each access while the warm-up window is open: the snapshot when the window ends. */
        private void countTowardsWarmup() {
            if (seen++ == warmupAccesses) {
                warm = snapshot();
                warmupOpen = false;
            }
        }

        @Override
        public void accessAll(TraceChunk chunk, int from, int to) {
            for (int i = from; i < to; i++) access(chunk.kind(i), chunk.address(i), chunk.sizeBytes(i), chunk.role(i));
        }

        @Override
        public void close() {
            Hierarchy.this.close();
        }
    }
}
