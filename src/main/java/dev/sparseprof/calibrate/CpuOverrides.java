package dev.sparseprof.calibrate;

import dev.sparseprof.hw.BandwidthCurve;
import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.CoreTeam;
import dev.sparseprof.hw.GatherRates;
import dev.sparseprof.hw.OneColumnRates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU parts of an overlay in the spec schema: lists replace the preset's whole list
 * ({@code config.Overlay}), so the cache levels are written in full.
 */
final class CpuOverrides {
    private CpuOverrides() {}

    /** One {@code cpu.caches} entry; {@code bandwidthBytesPerSecond <= 0} leaves the level without a roof. */
    static Map<String, Object> cache(String name, long sizeBytes, int ways, int lineBytes, double latencyCycles, boolean shared,
                                     double bandwidthBytesPerSecond) {
        Map<String, Object> level = new LinkedHashMap<>();
        level.put("name", name);
        level.put("size", Quantities.size(sizeBytes));
        level.put("ways", Integer.toString(ways));
        level.put("line", lineBytes + "B");
        level.put("latency", Quantities.cycles(latencyCycles));
        level.put("shared", Boolean.toString(shared));
        if (bandwidthBytesPerSecond > 0) level.put("bandwidth", Quantities.gigabytesPerSecond(bandwidthBytesPerSecond));
        return level;
    }

    /**
     * The {@code cpu.inCore} keys of the probed row-gather rates ({@code hw.GatherRates}: one block,
     * and two where measured, each with the overlap it was solved with) and the L1 reuse rule they and
     * the overlap were solved with ({@code l1Reuse}, {@code hw.InCoreRates}); none where the probe
     * measured no gather.
     */
    static void gather(Map<String, Object> inCore, GatherRates g, boolean fullyAssociativeReuse) {
        if (!g.present()) return;
        inCore.put("l2GatherPerCore", Quantities.gigabytesPerSecond(g.coreBytesPerSecond()));
        inCore.put("l2GatherAll", Quantities.gigabytesPerSecond(g.allBytesPerSecond()));
        inCore.put("gatherThreads", g.threads());
        if (!Double.isNaN(g.overlap())) inCore.put("gatherOverlap", String.format(Locale.ROOT, "%.3f", g.overlap()));
        if (g.widePresent()) {
            inCore.put("l2GatherWidePerCore", Quantities.gigabytesPerSecond(g.wideCoreBytesPerSecond()));
            inCore.put("l2GatherWideAll", Quantities.gigabytesPerSecond(g.wideAllBytesPerSecond()));
            if (!Double.isNaN(g.wideOverlap())) inCore.put("gatherWideOverlap", String.format(Locale.ROOT, "%.3f", g.wideOverlap()));
        }
        inCore.put("l1Reuse", fullyAssociativeReuse ? "fullyAssociative" : "setAssociative");
    }

    /** The {@code cpu.inCore} keys of the kernels' one-column bodies ({@code hw.OneColumnRates}); none of a body not probed. */
    static void oneColumn(Map<String, Object> inCore, OneColumnRates r) {
        if (r.spmvPresent()) {
            inCore.put("spmvVector", Quantities.cycles(r.spmvVectorCycles()));
            inCore.put("spmvRow", Quantities.cycles(r.spmvRowCycles()));
            inCore.put("spmvTail", Quantities.cycles(r.spmvTailCycles()));
        }
        if (r.gemvPresent()) {
            inCore.put("gemvFma", Quantities.cycles(r.gemvFmaCycles()));
            inCore.put("gemvRow", Quantities.cycles(r.gemvRowCycles()));
            if (r.gemvL2Present()) inCore.put("gemvL2", Quantities.gigabytesPerSecond(r.gemvL2BytesPerSecond()));
            if (r.gemvL3Present()) inCore.put("gemvL3", Quantities.gigabytesPerSecond(r.gemvL3BytesPerSecond()));
        }
        if (r.sellPresent()) {
            inCore.put("sellSlot", Quantities.cycles(r.sellSlotCycles()));
            inCore.put("sellChunk", Quantities.cycles(r.sellChunkCycles()));
            inCore.put("sellTranspose", Quantities.cycles(r.sellTransposeCycles()));
        }
    }

    /**
     * The {@code cpu.inCore} keys of the probe's team ({@code hw.CoreTeam}): its threads, the physical
     * cores under them and, where measured, its FMA pace beside each other; none where not probed.
     */
    static void team(Map<String, Object> inCore, CoreTeam t) {
        if (!t.present()) return;
        inCore.put("teamThreads", t.threads());
        inCore.put("teamCores", t.cores());
        if (!Double.isNaN(t.fma())) inCore.put("teamFma", String.format(Locale.ROOT, "%.3f", t.fma()));
    }

    static List<Object> caches(List<CacheLevel> levels) {
        List<Object> out = new ArrayList<>(levels.size());
        for (CacheLevel c : levels) {
            out.add(cache(c.name(), c.sizeBytes(), c.ways(), c.lineBytes(), c.latencyCycles(), c.shared(), c.bandwidthBytesPerSecond()));
        }
        return out;
    }

    static Map<String, Object> curvePoint(int cores, double bytesPerSecond) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Integer.toString(cores));
        m.put("bandwidth", Quantities.gigabytesPerSecond(bytesPerSecond));
        return m;
    }

    static List<Object> curve(BandwidthCurve c) {
        List<Object> out = new ArrayList<>();
        int[] cores = c.cores();
        double[] bw = c.bytesPerSecond();
        for (int i = 0; i < cores.length; i++) out.add(curvePoint(cores[i], bw[i]));
        return out;
    }
}
