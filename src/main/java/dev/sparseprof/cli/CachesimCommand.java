package dev.sparseprof.cli;

import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.memsim.CacheConfig;
import dev.sparseprof.memsim.CacheSpecs;
import dev.sparseprof.memsim.DramConfig;
import dev.sparseprof.memsim.DramStats;
import dev.sparseprof.memsim.Hierarchy;
import dev.sparseprof.memsim.HierarchyConfig;
import dev.sparseprof.memsim.HierarchyStats;
import dev.sparseprof.memsim.LevelStats;
import dev.sparseprof.memsim.MemoryStats;
import dev.sparseprof.memsim.MissRatioCurve;
import dev.sparseprof.memsim.MultiCoreReplay;
import dev.sparseprof.memsim.Prefetchers;
import dev.sparseprof.memsim.ReplacementPolicies;
import dev.sparseprof.memsim.StackDistanceProfiler;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TeeSink;
import dev.sparseprof.trace.TraceFiles;
import dev.sparseprof.trace.ReadAheadReader;
import dev.sparseprof.trace.TraceReader;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import dev.sparseprof.util.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sparseprof cachesim}: replays traces through a cache hierarchy and DRAM; one row per cache. */
@Command(name = "cachesim", sortOptions = false, mixinStandardHelpOptions = true,
        description = "Replay an address trace (din, extended din, .sptr; gzip or not) through caches and DRAM.")
final class CachesimCommand implements RunsDirect {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Option(names = "--trace", paramLabel = "FILE", description = "Trace file; repeat for one trace per core (round-robin).")
    List<Path> traces = new ArrayList<>();

    @Option(names = "--hw", paramLabel = "SPEC.yaml", description = "Hardware spec (file or preset) whose cache levels to simulate.")
    String hw;

    @Option(names = "--level", paramLabel = "NAME:SIZE:ASSOC:LINE[:POLICY[:WRITE]]",
            description = "A cache level, innermost first; ASSOC a number or 'full', POLICY lru|fifo|random|plru|srrip, WRITE wb-wa|wt-nwa|wb-nwa|wt-wa.")
    List<String> levels = new ArrayList<>();

    @Option(names = "--inclusion", paramLabel = "LEVEL=MODE", description = "non-inclusive (default), inclusive or exclusive.")
    List<String> inclusion = new ArrayList<>();

    @Option(names = "--sectors", paramLabel = "LEVEL=N", description = "Sectors per line of a level.")
    List<String> sectors = new ArrayList<>();

    @Option(names = "--prefetch", paramLabel = "LEVEL=NAME", description = "Prefetcher of a level: none, next-line, stride.")
    List<String> prefetch = new ArrayList<>();

    @Option(names = "--dram", paramLabel = "CH:BANKS:ROW:BURST:BW:LATENCY|ddr5", description = "DRAM model (with --hw: the spec's).")
    String dram;

    @Option(names = "--shared-from", paramLabel = "LEVEL", description = "First level shared by all cores (default: the last).")
    String sharedFrom;

    @Option(names = "--warmup", paramLabel = "N", description = "Leave the first N accesses out of the counts.")
    long warmup;

    @Option(names = "--3c", description = "Classify misses as compulsory, capacity, conflict.")
    boolean threeC;

    @Option(names = "--mrc", description = "Also print the LRU miss-ratio curve (fully associative, every power-of-two size).")
    boolean mrc;

    @Option(names = "--mrc-line", paramLabel = "BYTES", split = ",",
            description = "Line sizes (comma-separated) of the miss-ratio curves, all from the one pass (default: the first level's).")
    List<String> mrcLines = new ArrayList<>();

    @Option(names = "--access-size", paramLabel = "BYTES", defaultValue = "4", description = "Size of classic din records (default 4).")
    int accessSize;

    @Option(names = "--quantum", paramLabel = "N", defaultValue = "1", description = "Accesses per core per round-robin turn.")
    int quantum;

    @Option(names = "--interleave", paramLabel = "round-robin|timestamps", defaultValue = "round-robin",
            description = "How several traces interleave: round-robin (--quantum accesses a turn) or by the records' timestamps"
                    + " (timestamped .sptr traces).")
    String interleave;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write JSON ('-': standard output, alone).")
    String json;

    @Option(names = "--list", description = "List the replacement policies and prefetchers, then exit.")
    boolean list;

    @Override
    public Integer call() {
        return call(spec.commandLine().getOut());
    }

    @Override
    public int call(PrintWriter out) {
        Outputs.checkFolder("--json", json);
        if (list) {
            out.println("replacement policies: " + String.join(", ", ReplacementPolicies.names()));
            out.println("prefetchers:          " + String.join(", ", Prefetchers.names()));
            return Main.EXIT_OK;
        }
        if (traces.isEmpty()) throw new SparseprofException("cachesim: --trace is required");
        if ((hw == null) == levels.isEmpty()) throw new SparseprofException("cachesim: give either --hw or --level (one or more)");
        if (warmup < 0) throw new SparseprofException("--warmup must not be negative, got " + warmup);
        if (quantum < 1) throw new SparseprofException("--quantum must be at least 1, got " + quantum);
        if (!interleave.equals("round-robin") && !interleave.equals("timestamps")) {
            throw new SparseprofException("--interleave must be round-robin or timestamps, got '" + interleave + "'");
        }
        if (accessSize < 1) throw new SparseprofException("--access-size must be at least 1, got " + accessSize);
        HierarchyConfig config = hierarchy();

        Hierarchy h = new Hierarchy(config);
        h.setWarmup(warmup);
        List<StackDistanceProfiler> profilers = new ArrayList<>();
        if (mrc) for (int lineBytes : mrcLineBytes(config)) profilers.add(new StackDistanceProfiler(lineBytes));
        long totalBytes = 0;
        for (Path t : traces) totalBytes += fileSize(t);
        Progress progress = TerminalProgressBar.forTerminal("cachesim");
        long started = System.nanoTime();
        List<TraceReader> readers = new ArrayList<>();
        try {
            for (Path t : traces) readers.add(new ReadAheadReader(TraceFiles.open(t, accessSize)));
            if (readers.size() == 1) {
                List<TraceSink> sinks = new ArrayList<>(profilers);
                sinks.addFirst(h);
                TraceSink sink = sinks.size() == 1 ? h : new TeeSink(sinks);
                readers.getFirst().pushAll(sink, progress, totalBytes);
            } else {
                if (!profilers.isEmpty()) throw new SparseprofException("--mrc works on one trace (give one --trace)");
                if (interleave.equals("timestamps")) {
                    for (int i = 0; i < readers.size(); i++) {
                        if (!readers.get(i).timestamped()) {
                            throw new SparseprofException(traces.get(i) + ": --interleave timestamps needs timestamped traces"
                                    + " (.sptr with timestamps); this one has none");
                        }
                    }
                    MultiCoreReplay.byTimestamp(readers, h, progress, totalBytes);
                } else {
                    MultiCoreReplay.roundRobin(readers, h, quantum, progress, totalBytes);
                }
            }
        } finally {
            for (TraceReader r : readers) r.close();
        }
        h.close();
        double seconds = (System.nanoTime() - started) / 1e9;
        HierarchyStats stats = h.measured();
        List<MissRatioCurve> curves = profilers.stream().map(StackDistanceProfiler::curve).toList();

        Outputs.write(json, () -> json(stats, curves, seconds), out);
        if (!Outputs.jsonOnStdout(json)) {
            out.print(table(stats, curves));
            out.printf(Locale.ROOT, "%,d accesses in %.2f s (%.1f M accesses/s)%n", h.snapshot().accesses(), seconds,
                    h.snapshot().accesses() / seconds / 1e6);
        }
        return Main.EXIT_OK;
    }

    private HierarchyConfig hierarchy() {
        int cores = traces.size();
        HierarchyConfig base;
        if (hw != null) {
            base = CacheSpecs.fromHardware(HardwareSpecs.load(hw), cores);
        } else {
            List<CacheConfig> parsed = new ArrayList<>();
            for (String l : levels) {
                try {
                    parsed.add(CacheSpecs.parseLevel(l));
                } catch (SparseprofException e) {
                    throw new SparseprofException("--level " + l + ": " + e.getMessage());
                }
            }
            base = new HierarchyConfig(parsed, cores, cores == 1 ? parsed.size() : parsed.size() - 1, null);
        }
        List<CacheConfig> ls = base.levels();
        for (String a : inclusion) ls = CacheSpecs.override(ls, a, "--inclusion");
        for (String a : sectors) ls = CacheSpecs.override(ls, a, "--sectors");
        for (String a : prefetch) ls = CacheSpecs.override(ls, a, "--prefetch");
        if (threeC) ls = ls.stream().map(c -> c.withClassifyMisses(true)).toList();
        int firstShared = base.firstSharedLevel();
        if (sharedFrom != null) {
            firstShared = -1;
            for (int i = 0; i < ls.size(); i++) if (ls.get(i).name().equals(sharedFrom)) firstShared = i;
            if (firstShared < 0) throw new SparseprofException("--shared-from: no level named '" + sharedFrom + "'");
        }
        DramConfig d = base.dram();
        if (dram != null) {
            try {
                d = CacheSpecs.parseDram(dram);
            } catch (SparseprofException e) {
                throw new SparseprofException("--dram " + dram + ": " + e.getMessage());
            }
        }
        return new HierarchyConfig(ls, cores, firstShared, d);
    }

    private List<Integer> mrcLineBytes(HierarchyConfig config) {
        if (mrcLines.isEmpty()) return List.of(config.levels().getFirst().lineBytes());
        List<Integer> out = new ArrayList<>();
        for (String text : mrcLines) {
            long b = Units.parseBytes(text);
            if (b < 1 || b > 1 << 20 || Long.bitCount(b) != 1) throw new SparseprofException("--mrc-line " + text + " is not a power of two");
            out.add((int) b);
        }
        return out;
    }

    private static long fileSize(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new SparseprofException(p + ": no such file");
        }
    }

    private String table(HierarchyStats s, List<MissRatioCurve> curves) {
        TextTable t = new TextTable("level", "fetches", "reads", "writes", "misses", "read miss", "write miss", "hit rate",
                "write-backs", "from below", "to below");
        t.rightAlign(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        for (LevelStats l : s.levels()) {
            t.row(l.name(), l.fetches().total(), l.fetches().read(), l.fetches().write(), l.misses().total(), l.misses().read(),
                    l.misses().write(), String.format(Locale.ROOT, "%.2f%%", 100 * l.hitRate()), l.writeBacks(),
                    Units.formatBytes(l.bytesFromBelow()), Units.formatBytes(l.bytesToBelow()));
        }
        StringBuilder b = new StringBuilder(t.render());
        if (threeC) {
            TextTable c = new TextTable("level", "compulsory", "capacity", "conflict");
            c.rightAlign(1, 2, 3);
            for (LevelStats l : s.levels()) c.row(l.name(), l.threeC().compulsory(), l.threeC().capacity(), l.threeC().conflict());
            b.append('\n').append(c.render());
        }
        TextTable roles = new TextTable("level", "array", "accesses", "misses", "write-backs");
        roles.rightAlign(2, 3, 4);
        int rows = 0;
        for (LevelStats l : s.levels()) {
            for (ArrayRole r : ArrayRole.values()) {
                if (l.roles().accesses(r) == 0 || r == ArrayRole.UNKNOWN) continue;
                roles.row(l.name(), r.label(), l.roles().accesses(r), l.roles().misses(r), l.roles().writeBacks(r));
                rows++;
            }
        }
        if (rows > 0) b.append('\n').append(roles.render());
        MemoryStats m = s.memory();
        b.append(String.format(Locale.ROOT, "%nmemory: %,d reads (%s), %,d writes (%s)%n", m.requests().read(),
                Units.formatBytes(m.bytes().read()), m.requests().write(), Units.formatBytes(m.bytes().write())));
        if (m.dram() != null) {
            DramStats d = m.dram();
            b.append(String.format(Locale.ROOT, "dram: row hits %,d, misses %,d, conflicts %,d; time %s (bandwidth bound %s, latency bound %s)%n",
                    d.rowHits(), d.rowMisses(), d.rowConflicts(), Units.formatSeconds(d.timeSeconds()),
                    Units.formatSeconds(d.bandwidthBoundSeconds()), Units.formatSeconds(d.latencyBoundSeconds())));
        }
        for (MissRatioCurve curve : curves) {
            TextTable c = new TextTable("LRU size", "misses", "miss ratio");
            c.rightAlign(0, 1, 2);
            for (MissRatioCurve.Point p : curve.powerOfTwoPoints()) {
                c.row(Units.formatBytes(p.cacheBytes()), p.misses(), String.format(Locale.ROOT, "%.4f", p.missRatio()));
            }
            b.append('\n').append("miss-ratio curve, fully associative LRU, ").append(curve.lineBytes()).append("-byte lines\n").append(c.render());
        }
        return b.toString();
    }

    private String json(HierarchyStats s, List<MissRatioCurve> curves, double seconds) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("traces").beginArray();
        for (Path t : traces) w.value(t.toString());
        w.endArray();
        w.field("accesses", s.accesses()).field("warmupAccesses", warmup).field("seconds", seconds);
        w.name("levels").beginArray();
        for (LevelStats l : s.levels()) {
            w.beginObject().field("name", l.name());
            w.name("fetches").beginObject().field("total", l.fetches().total()).field("read", l.fetches().read())
                    .field("write", l.fetches().write()).endObject();
            w.name("misses").beginObject().field("total", l.misses().total()).field("read", l.misses().read())
                    .field("write", l.misses().write()).endObject();
            w.field("bytesFromMemory", l.bytesFromBelow()).field("bytesToMemory", l.bytesToBelow());
            w.field("hitRate", l.hitRate()).field("blockMisses", l.blockMisses().total()).field("writeBacks", l.writeBacks());
            w.field("backInvalidations", l.backInvalidations()).field("victimsIn", l.victimsIn());
            w.name("prefetches").beginObject().field("issued", l.prefetchesIssued()).field("useful", l.prefetchesUseful()).endObject();
            if (threeC) {
                w.name("threeC").beginObject().field("compulsory", l.threeC().compulsory()).field("capacity", l.threeC().capacity())
                        .field("conflict", l.threeC().conflict()).endObject();
            }
            w.name("perArray").beginObject();
            for (ArrayRole r : ArrayRole.values()) {
                if (l.roles().accesses(r) == 0) continue;
                w.name(r.label()).beginObject().field("accesses", l.roles().accesses(r)).field("misses", l.roles().misses(r))
                        .field("writeBacks", l.roles().writeBacks(r)).endObject();
            }
            w.endObject().endObject();
        }
        w.endArray();
        MemoryStats m = s.memory();
        w.name("memory").beginObject().field("reads", m.requests().read()).field("writes", m.requests().write())
                .field("bytesRead", m.bytes().read()).field("bytesWritten", m.bytes().write());
        if (m.dram() != null) {
            DramStats d = m.dram();
            w.name("dram").beginObject().field("requests", d.requests()).field("bursts", d.bursts()).field("rowHits", d.rowHits())
                    .field("rowMisses", d.rowMisses()).field("rowConflicts", d.rowConflicts()).field("bytesMoved", d.bytesMoved())
                    .field("bandwidthBoundSeconds", d.bandwidthBoundSeconds()).field("latencyBoundSeconds", d.latencyBoundSeconds())
                    .field("timeSeconds", d.timeSeconds()).endObject();
        }
        w.endObject();
        if (!curves.isEmpty()) {
            w.name("mrc").beginArray();
            for (MissRatioCurve curve : curves) {
                w.beginObject().field("lineBytes", curve.lineBytes()).field("references", curve.references())
                        .field("coldMisses", curve.coldMisses()).name("points").beginArray();
                for (MissRatioCurve.Point p : curve.powerOfTwoPoints()) {
                    w.beginObject().field("cacheBytes", p.cacheBytes()).field("misses", p.misses()).field("missRatio", p.missRatio()).endObject();
                }
                w.endArray().endObject();
            }
            w.endArray();
        }
        return w.endObject().toString();
    }
}
