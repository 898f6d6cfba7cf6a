package dev.sparseprof.hw;

import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds a loaded spec tree (version 1) to {@link GpuSpec} or {@link CpuSpec}, strictly: every
 * mapping declares its keys, so a misspelt key fails with its path and the allowed keys. The layout
 * is documented in {@code docs/perfmodel.md} and shown by the files in {@code hardware-specs/}.
 */
final class SpecReader {
    static final int VERSION = 1;

    private static final String[] TOP = {"version", "name", "gpu", "cpu", "overheads", "runtime"};
    private static final String[] GPU = {"sms", "clock", "l1", "sharedMemory", "l2", "dram", "peaks", "warpSize", "residentWarpsPerSm",
        "registersPerSm", "maxBlocksPerSm", "arch"};
    private static final String[] CPU = {"cores", "clock", "simdWidth", "fmaPorts", "missesInFlight", "caches", "dram", "model", "inCore"};
    private static final String[] IN_CORE = {"vectorBits", "denseFma", "denseNarrowFma", "block8", "block4", "block2", "oneVector", "rowBlock", "wholeRow", "cooEntry", "cooRow",
        "bsrWide", "bsrNarrow", "nmSlot", "bsrTile", "nmRow", "split2", "split1", "l2PerCore", "l3PerCore", "overlap", "denseOverlap",
        "l2GatherPerCore", "l2GatherAll", "gatherThreads", "l2GatherWidePerCore", "l2GatherWideAll", "gatherOverlap", "gatherWideOverlap",
        "slowestCore", "l1Reuse", "nmDecode", "teamThreads", "teamCores", "teamFma",
        "spmvVector", "spmvRow", "spmvTail", "gemvFma", "gemvRow", "gemvL2", "gemvL3", "sellSlot", "sellChunk", "sellTranspose"};
    private static final String[] CACHE = {"size", "line", "sector", "ways", "latency", "bandwidth"};
    private static final String[] CPU_CACHE = {"name", "size", "ways", "line", "latency", "shared", "bandwidth"};
    private static final String[] GPU_DRAM = {"bandwidth", "latency", "size"};
    private static final String[] CPU_DRAM = {"bandwidth", "latency", "size"};
    private static final String[] POINT = {"cores", "bandwidth"};
    private static final String[] OVERHEADS = {"launch", "perRow", "perNnz", "gather", "denseEfficiency", "tileStep", "tensorTile", "perNnzByFormat", "forkJoin",
            "imbalancePenalty"};

    private SpecReader() {}

    static HardwareSpec read(ConfigMap root) {
        root.allow(TOP);
        String name = root.string("name");
        boolean gpu = root.has("gpu");
        if (gpu == root.has("cpu")) throw root.error("needs exactly one of gpu: or cpu:");
        ConfigMap section = root.map(gpu ? "gpu" : "cpu");
        if (!gpu && root.has("runtime")) throw root.error("runtime", "is the software stack of GPU GEMMs; a CPU spec has none");
        RuntimeSpec runtime = gpu ? Runtimes.read(root.mapOrEmpty("runtime")) : null;
        double clock = SpecValues.hertz(section, "clock");
        KernelOverheads overheads = overheads(root.mapOrEmpty("overheads"), clock, gpu);
        try {
            return gpu ? gpu(name, root.file(), section, overheads, runtime) : cpu(name, root.file(), section, overheads);
        } catch (SpecException e) {
            if (e.getMessage().startsWith(root.file() + ":")) throw e;
            throw new SpecException(root.file() + ": " + e.getMessage(), e);
        }
    }

    private static GpuSpec gpu(String name, String file, ConfigMap g, KernelOverheads overheads, RuntimeSpec runtime) {
        g.allow(GPU);
        int sms = g.positiveInt("sms");
        double clock = SpecValues.hertz(g, "clock");
        CacheLevel l1 = gpuCache(g.map("l1"), "L1", false, clock);
        CacheLevel l2 = gpuCache(g.map("l2"), "L2", true, clock);
        ConfigMap d = g.map("dram").allow(GPU_DRAM);
        DramSpec dram = new DramSpec(d.has("size") ? SpecValues.bytes(d, "size") : 0, SpecValues.latencySeconds(d, "latency", clock),
                BandwidthCurve.flat(positive(d, "bandwidth", SpecValues.bytesPerSecond(d, "bandwidth"))));
        ConfigMap p = g.map("peaks").allow("vector", "tensor", "sparseTensor");
        Map<ComputeUnit, Map<DType, Double>> peaks = new EnumMap<>(ComputeUnit.class);
        for (ComputeUnit u : ComputeUnit.values()) peaks.put(u, peakTable(p.mapOrEmpty(u.key())));
        return new GpuSpec(name, file, sms, clock, g.positiveInt("warpSize", 32), g.positiveInt("residentWarpsPerSm", 64),
                l1, g.has("sharedMemory") ? SpecValues.bytes(g, "sharedMemory") : 0, l2, dram, new ComputePeaks(file, peaks), overheads,
                g.positiveInt("registersPerSm", GpuSpec.DEFAULT_REGISTERS_PER_SM), g.positiveInt("maxBlocksPerSm", GpuSpec.DEFAULT_MAX_BLOCKS_PER_SM),
                g.string("arch", "sm80"), runtime);
    }

    private static CpuSpec cpu(String name, String file, ConfigMap c, KernelOverheads overheads) {
        c.allow(CPU);
        int cores = c.positiveInt("cores");
        double clock = SpecValues.hertz(c, "clock");
        long simdBits = SpecValues.bits(c, "simdWidth");
        int fmaPorts = c.positiveInt("fmaPorts");
        List<CacheLevel> caches = new ArrayList<>();
        for (ConfigMap m : c.list("caches")) {
            m.allow(CPU_CACHE);
            long line = SpecValues.bytes(m, "line");
            caches.add(level(m, m.string("name"), line, line, m.bool("shared", false), clock));
        }
        ConfigMap d = c.map("dram").allow(CPU_DRAM);
        List<ConfigMap> points = d.list("bandwidth");
        int[] coreCounts = new int[points.size()];
        double[] bandwidths = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            ConfigMap pt = points.get(i).allow(POINT);
            coreCounts[i] = pt.positiveInt("cores");
            bandwidths[i] = positive(pt, "bandwidth", SpecValues.bytesPerSecond(pt, "bandwidth"));
        }
        DramSpec dram = new DramSpec(d.has("size") ? SpecValues.bytes(d, "size") : 0, SpecValues.latencySeconds(d, "latency", clock),
                new BandwidthCurve(coreCounts, bandwidths));
        if (simdBits < 64 || simdBits > 4096 || simdBits % 64 != 0) throw c.error("simdWidth", "must be a multiple of 64 bits");
        Map<ComputeUnit, Map<DType, Double>> peaks = new EnumMap<>(ComputeUnit.class);
        Map<DType, Double> vector = new LinkedHashMap<>();
        // Derived (D): cores x clock x (simd lanes) x FMA ports x 2 flops per FMA.
        vector.put(DType.F64, cores * clock * (simdBits / 64.0) * fmaPorts * 2);
        vector.put(DType.F32, cores * clock * (simdBits / 32.0) * fmaPorts * 2);
        peaks.put(ComputeUnit.VECTOR, vector);
        int missesInFlight = c.positiveInt("missesInFlight", CpuSpec.DEFAULT_MISSES_IN_FLIGHT);
        return new CpuSpec(name, file, cores, clock, (int) simdBits, fmaPorts, caches, dram, new ComputePeaks(file, peaks), overheads,
                missesInFlight, c.string("model", ""), c.has("inCore") ? inCore(c.map("inCore")) : InCoreRates.NONE);
    }

    /** {@code cpu.inCore}: the probed in-core rates, every rate in cycles (InCoreRates). */
    private static InCoreRates inCore(ConfigMap m) {
        m.allow(IN_CORE);
        boolean apart = m.has("bsrTile") && m.has("nmRow");
        if (!apart && (m.has("bsrTile") || m.has("nmRow"))) {
            throw m.error("bsrTile and nmRow come together (a probe writes both); this file has only " + (m.has("bsrTile") ? "bsrTile" : "nmRow"));
        }
        try {
            return new InCoreRates((int) SpecValues.bits(m, "vectorBits"), SpecValues.cycles(m, "denseFma"), SpecValues.cycles(m, "denseNarrowFma"),
                    SpecValues.cycles(m, "block8"), SpecValues.cycles(m, "block4"), SpecValues.cycles(m, "block2"), SpecValues.cycles(m, "oneVector"),
                    SpecValues.cycles(m, "rowBlock"), SpecValues.cycles(m, "wholeRow"),
                    SpecValues.cycles(m, "cooEntry"), SpecValues.cycles(m, "cooRow"), SpecValues.cycles(m, "bsrWide"),
                    SpecValues.cycles(m, "bsrNarrow"), SpecValues.cycles(m, "nmSlot"),
                    m.has("l2PerCore") ? SpecValues.bytesPerSecond(m, "l2PerCore") : 0,
                    m.has("l3PerCore") ? SpecValues.bytesPerSecond(m, "l3PerCore") : 0, m.number("overlap"),
                    apart ? SpecValues.cycles(m, "bsrTile") : 0, apart ? SpecValues.cycles(m, "nmRow") : 0, apart,
                    m.has("split2") ? SpecValues.cycles(m, "split2") : 0, m.has("split1") ? SpecValues.cycles(m, "split1") : 0,
                    gather(m), m.has("slowestCore") ? m.number("slowestCore") : 0,
                    m.has("denseOverlap") ? m.number("denseOverlap") : InCoreRates.NOT_PROBED, fullyAssociativeReuse(m), nmDecodeSerial(m), team(m),
                    oneColumn(m));
        } catch (SpecException e) {
            throw m.error(e.getMessage());
        }
    }

    /**
     * {@code spmvVector}, {@code spmvRow}, {@code spmvTail}; {@code gemvFma}, {@code gemvRow}; and
     * {@code sellSlot}, {@code sellChunk}, {@code sellTranspose} ({@link OneColumnRates}): each group
     * all or none (a probe writes each together); {@code gemvL2} and {@code gemvL3} only with the gemv
     * pair (probes before 8 Dec 2026 wrote the pair without them).
     */
    private static OneColumnRates oneColumn(ConfigMap m) {
        double[] spmv = together(m, "spmvVector", "spmvRow", "spmvTail");
        double[] gemv = together(m, "gemvFma", "gemvRow");
        double[] sell = together(m, "sellSlot", "sellChunk", "sellTranspose");
        if ((m.has("gemvL2") || m.has("gemvL3")) && !m.has("gemvFma")) throw m.error("gemvL2 and gemvL3 need gemvFma and gemvRow (a probe writes them together)");
        double gemvL2 = m.has("gemvL2") ? SpecValues.bytesPerSecond(m, "gemvL2") : 0;
        double gemvL3 = m.has("gemvL3") ? SpecValues.bytesPerSecond(m, "gemvL3") : 0;
        return new OneColumnRates(spmv[0], spmv[1], spmv[2], gemv[0], gemv[1], sell[0], sell[1], sell[2], gemvL2, gemvL3);
    }

    /** The cycles of {@code keys}, all present or all absent (zeros). */
    private static double[] together(ConfigMap m, String... keys) {
        int present = 0;
        for (String k : keys) if (m.has(k)) present++;
        double[] v = new double[keys.length];
        if (present == 0) return v;
        if (present < keys.length) throw m.error(String.join(", ", keys) + " come together (a probe writes them all)");
        for (int i = 0; i < keys.length; i++) v[i] = SpecValues.cycles(m, keys[i]);
        return v;
    }

    /** {@code teamThreads}, {@code teamCores}, {@code teamFma} ({@link CoreTeam}): a probe writes the first two together, the third with them. */
    private static CoreTeam team(ConfigMap m) {
        if (!m.has("teamThreads")) {
            if (m.has("teamCores") || m.has("teamFma")) throw m.error("teamCores and teamFma need teamThreads (a probe writes them together)");
            return CoreTeam.NONE;
        }
        if (!m.has("teamCores")) throw m.error("teamThreads needs teamCores (a probe writes both)");
        return new CoreTeam(m.positiveInt("teamThreads"), m.positiveInt("teamCores"), m.has("teamFma") ? m.number("teamFma") : Double.NaN);
    }

    /**
     * Whether the spec's overlap and gather rates were solved with a fully associative L1
     * ({@link InCoreRates}): {@code l1Reuse} says; without it, a file with gather rates predates the
     * key and was.
     */
    private static boolean fullyAssociativeReuse(ConfigMap m) {
        if (!m.has("l1Reuse")) return m.has("l2GatherPerCore");
        String rule = m.string("l1Reuse");
        if (rule.equals("setAssociative")) return false;
        if (rule.equals("fullyAssociative")) return true;
        throw m.error("l1Reuse", "must be setAssociative or fullyAssociative, got '" + rule + "'");
    }

    /** Whether the N:M decode is the pass alone, in series with the body ({@link InCoreRates}; {@code nmDecode: serial}). */
    private static boolean nmDecodeSerial(ConfigMap m) {
        if (!m.has("nmDecode")) return false;
        String how = m.string("nmDecode");
        if (how.equals("serial")) return true;
        throw m.error("nmDecode", "must be serial (or absent: a probe before 7 Dec 2026), got '" + how + "'");
    }

    /** The probed row-gather bandwidths ({@link GatherRates}); none in files written before 4 Dec 2026, no wide ones and no overlaps before 7 Dec. */
    private static GatherRates gather(ConfigMap m) {
        if (!m.has("l2GatherPerCore")) {
            if (m.has("l2GatherAll") || m.has("gatherThreads") || m.has("l2GatherWidePerCore") || m.has("l2GatherWideAll")
                    || m.has("gatherOverlap") || m.has("gatherWideOverlap")) {
                throw m.error("l2GatherAll, gatherThreads, the wide rates and the gather overlaps need l2GatherPerCore (a probe writes them together)");
            }
            return GatherRates.NONE;
        }
        if (m.has("l2GatherWideAll") && !m.has("l2GatherWidePerCore")) throw m.error("l2GatherWideAll needs l2GatherWidePerCore (a probe writes both)");
        if (m.has("gatherWideOverlap") && !m.has("l2GatherWidePerCore")) throw m.error("gatherWideOverlap needs l2GatherWidePerCore (a probe writes both)");
        return new GatherRates(SpecValues.bytesPerSecond(m, "l2GatherPerCore"), m.has("l2GatherAll") ? SpecValues.bytesPerSecond(m, "l2GatherAll") : 0,
                m.has("gatherThreads") ? (int) m.number("gatherThreads") : 0,
                m.has("l2GatherWidePerCore") ? SpecValues.bytesPerSecond(m, "l2GatherWidePerCore") : 0,
                m.has("l2GatherWideAll") ? SpecValues.bytesPerSecond(m, "l2GatherWideAll") : 0,
                m.has("gatherOverlap") ? m.number("gatherOverlap") : Double.NaN,
                m.has("gatherWideOverlap") ? m.number("gatherWideOverlap") : Double.NaN);
    }

    private static CacheLevel gpuCache(ConfigMap m, String name, boolean shared, double clock) {
        m.allow(CACHE);
        long line = SpecValues.bytes(m, "line");
        long sector = m.has("sector") ? SpecValues.bytes(m, "sector") : line;
        return level(m, name, line, sector, shared, clock);
    }

    private static CacheLevel level(ConfigMap m, String name, long line, long sector, boolean shared, double clock) {
        long size = SpecValues.bytes(m, "size");
        if (size <= 0) throw m.error("size", "must be positive");
        int ways = m.positiveInt("ways");
        if (line <= 0 || line > (1 << 20)) throw m.error("line", "must be between 1 B and 1 MiB");
        if (sector <= 0 || sector > line) throw m.error("sector", "must be positive and no larger than the line");
        if (size % ((long) ways * line) != 0) {
            throw m.error("size", Units.formatBytes(size) + " / (" + ways + " ways x " + line
                    + " B lines) is not a whole number of sets");
        }
        double latencyCycles = SpecValues.latencySeconds(m, "latency", clock) * clock;
        double bandwidth = m.has("bandwidth") ? positive(m, "bandwidth", SpecValues.bytesPerSecond(m, "bandwidth")) : 0;
        try {
            return new CacheLevel(name, size, ways, (int) line, (int) sector, latencyCycles, shared, bandwidth);
        } catch (SpecException e) {
            throw m.error(e.getMessage());
        }
    }

    private static double positive(ConfigMap m, String key, double value) {
        if (!(value > 0)) throw m.error(key, "must be positive");
        return value;
    }

    private static Map<DType, Double> peakTable(ConfigMap m) {
        Map<DType, Double> out = new LinkedHashMap<>();
        for (String key : m.keys()) {
            DType d;
            try {
                d = DType.parse(key);
            } catch (SparseprofException e) {
                throw m.error(key, e.getMessage());
            }
            if (!key.equals(d.label())) throw m.error(key, "write the dtype as " + d.label());
            out.put(d, positive(m, key, SpecValues.flopsPerSecond(m, key)));
        }
        return out;
    }

    private static KernelOverheads overheads(ConfigMap m, double clock, boolean gpu) {
        m.allow(OVERHEADS);
        // Model defaults (U, not measured here): a GPU kernel launch costs a few microseconds, a CPU
        // parallel region's fork/join about one; per-row and per-index costs are a few cycles. Calibration replaces them.
        double launch = m.has("launch") ? SpecValues.seconds(m, "launch") : (gpu ? 5e-6 : 1e-6);
        double perRow = m.has("perRow") ? SpecValues.cycles(m, "perRow") : (gpu ? 20 : 8);
        double perNnz = m.has("perNnz") ? SpecValues.cycles(m, "perNnz") : 1;
        // Documented defaults (docs/perfmodel.md, "CPU realism"), not fitted to a case: a gathered B
        // slice costs ~2 issue cycles beyond its loads and FMAs on a CPU (value broadcast, index load,
        // address multiply-add: 3 uops where the FMA-bound loop leaves ~1.5 slots a cycle free), none
        // on a GPU (other warps hide it). A register-blocked CPU GEMM loses ~10 % of the FMA peak to
        // packing B, the C tile epilogue and loop control; a GPU GEMM's losses are in its tile
        // pipeline model (TiledGemm), so 1 there.
        double gather = m.has("gather") ? SpecValues.cycles(m, "gather") : (gpu ? 0 : 2);
        double denseEfficiency = m.has("denseEfficiency") ? m.number("denseEfficiency") : (gpu ? 1 : 0.9);
        if (!(denseEfficiency > 0 && denseEfficiency <= 1)) throw m.error("denseEfficiency", "must be a fraction in (0, 1]");
        // A GPU tile's K step waits for its stage's cp.async group and crosses a block barrier:
        // ~32 cycles (U: a barrier plus the wait and pointer arithmetic, a documented default).
        double tileStep = m.has("tileStep") ? SpecValues.cycles(m, "tileStep") : (gpu ? 32 : 0);
        int tileRows = 128;
        int tileCols = 128;
        if (m.has("tensorTile")) {
            String[] parts = m.string("tensorTile").split("x");
            try {
                if (parts.length != 2) throw new NumberFormatException();
                tileRows = Integer.parseInt(parts[0].trim());
                tileCols = Integer.parseInt(parts[1].trim());
            } catch (NumberFormatException e) {
                throw m.error("tensorTile", "must look like 128x128");
            }
            if (tileRows <= 0 || tileCols <= 0) throw m.error("tensorTile", "must be positive");
        }
        // Per-format decode cycles (format name -> cycles), written by calibrate; the names are not
        // checked against the format registry here (hw sits below perfmodel), a name no format has is unused.
        Map<String, Double> byFormat = new LinkedHashMap<>();
        ConfigMap f = m.mapOrEmpty("perNnzByFormat");
        for (String format : f.keys()) byFormat.put(format, SpecValues.cycles(f, format));
        // A CPU call's hand-off to each further thread: ~1 us (U, a documented default; a spinning
        // pool measured 0.7 us on the build VM, docs/kernels.md). No such term on a GPU.
        double forkJoin = m.has("forkJoin") ? SpecValues.seconds(m, "forkJoin") : (gpu ? 0 : 1e-6);
        if (gpu && forkJoin != 0) throw m.error("forkJoin", "is a CPU term (a GPU kernel's fixed cost is launch)");
        double imbalancePenalty = m.has("imbalancePenalty") ? m.number("imbalancePenalty") : 1;
        if (!(imbalancePenalty >= 0)) throw m.error("imbalancePenalty", "must not be negative");
        return new KernelOverheads(launch, perRow, perNnz, tileRows, tileCols, gather, denseEfficiency, tileStep, byFormat, forkJoin,
                imbalancePenalty);
    }
}
