package dev.sparseprof.calibrate;

import dev.sparseprof.hw.BandwidthCurve;
import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputePeaks;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.DramSpec;
import dev.sparseprof.hw.InCoreRates;
import dev.sparseprof.hw.KernelOverheads;
import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Values of every {@link FitParameter} for one CPU spec, and the spec they make. Bandwidths and the
 * clock are absolute (bytes/s, Hz); a cache level the spec has no bandwidth for stays without one.
 * The dense efficiency is capped at 1 in the spec (the fit may step past it; above 1 it changes
 * nothing). The per-format decode cycles exist for the formats named at {@link #of(CpuSpec, Collection)}.
 */
public final class CpuParameters {
    private final CpuSpec base;
    private final Map<FitParameter, Double> values;

    private CpuParameters(CpuSpec base, Map<FitParameter, Double> values) {
        this.base = base;
        this.values = values;
    }

    /** The values the spec holds, with the per-format decode cycles of the formats the spec names. */
    public static CpuParameters of(CpuSpec spec) {
        return of(spec, spec.overheads().perNnzCyclesByFormat().keySet());
    }

    /** The values the spec holds, with per-format decode cycles for {@code formats} (starting from the spec's). */
    public static CpuParameters of(CpuSpec spec, Collection<String> formats) {
        Map<FitParameter, Double> v = new LinkedHashMap<>();
        List<CacheLevel> caches = spec.caches();
        KernelOverheads o = spec.overheads();
        v.put(FitParameter.L1_BANDWIDTH, caches.size() > 0 ? caches.get(0).bandwidthBytesPerSecond() : 0);
        v.put(FitParameter.L2_BANDWIDTH, caches.size() > 1 ? caches.get(1).bandwidthBytesPerSecond() : 0);
        v.put(FitParameter.L3_BANDWIDTH, caches.size() > 2 ? caches.get(2).bandwidthBytesPerSecond() : 0);
        v.put(FitParameter.DRAM_BANDWIDTH, spec.dram().bandwidth().peak());
        v.put(FitParameter.PER_ROW_CYCLES, o.perRowCycles());
        v.put(FitParameter.PER_NNZ_CYCLES, o.perNnzCycles());
        for (String f : new TreeSet<>(formats)) v.put(FitParameter.perNnzCycles(f), o.perNnzCycles(f));
        v.put(FitParameter.LAUNCH_SECONDS, o.launchSeconds());
        v.put(FitParameter.FORK_JOIN_SECONDS, o.forkJoinSeconds());
        v.put(FitParameter.IMBALANCE_PENALTY, o.imbalancePenalty());
        v.put(FitParameter.DENSE_EFFICIENCY, o.denseEfficiency());
        v.put(FitParameter.CLOCK, spec.clockHertz());
        if (spec.inCore().present()) {
            double[] rates = inCoreValues(spec.inCore());
            for (int i = 0; i < IN_CORE_KEYS.length; i++) v.put(FitParameter.inCore(IN_CORE_KEYS[i]), rates[i]);
        }
        return new CpuParameters(spec, v);
    }

    /** The ECM model's rates as {@link FitParameter#inCore} parameters, in {@code cpu.inCore}'s key order. */
    static final String[] IN_CORE_KEYS = {"denseFma", "denseNarrowFma", "block8", "block4", "block2", "oneVector", "rowBlock", "wholeRow", "cooEntry",
        "cooRow", "bsrWide", "bsrNarrow", "nmSlot", "l2PerCore"};

    private static double[] inCoreValues(InCoreRates r) {
        return new double[] {r.denseFmaCycles(), r.denseNarrowFmaCycles(), r.block8Cycles(), r.block4Cycles(), r.block2Cycles(),
            r.oneVectorCycles(), r.rowBlockCycles(), r.wholeRowCycles(), r.cooEntryCycles(), r.cooRowCycles(), r.bsrWideCycles(), r.bsrNarrowCycles(), r.nmSlotCycles(), r.l2CoreBytesPerSecond()};
    }

    private InCoreRates inCore() {
        InCoreRates r = base.inCore();
        if (!r.present()) return r;
        double[] x = new double[IN_CORE_KEYS.length];
        for (int i = 0; i < x.length; i++) x[i] = get(FitParameter.inCore(IN_CORE_KEYS[i]));
        return new InCoreRates(r.vectorBits(), x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13],
                r.l3CoreBytesPerSecond(),
                r.overlap(), r.bsrTileCycles(), r.nmRowCycles(), r.fixedPartsApart(), r.split2Cycles(), r.split1Cycles(), r.l2Gather(), r.slowestCore(),
                r.denseOverlap(), r.fullyAssociativeReuse(), r.nmDecodeSerial(), r.team(), r.oneColumn());
    }

    /** Every parameter, in a fixed order. */
    public List<FitParameter> parameters() {
        return List.copyOf(values.keySet());
    }

    public double get(FitParameter f) {
        Double v = values.get(f);
        if (v == null) throw new IllegalArgumentException("no parameter " + f.label());
        return v;
    }

    public CpuParameters with(FitParameter f, double value) {
        if (!values.containsKey(f)) throw new IllegalArgumentException("no parameter " + f.label());
        Map<FitParameter, Double> v = new LinkedHashMap<>(values);
        v.put(f, value);
        return new CpuParameters(base, v);
    }

    /** True when the parameter is a positive quantity the spec uses (a level without bandwidth is not). */
    public boolean isActive(FitParameter f) {
        return get(f) > 0;
    }

    public CpuSpec base() {
        return base;
    }

    /** The spec with these values, on all of the base's cores. */
    public CpuSpec spec() {
        return spec(base.cores());
    }

    /** The spec with these values, running on {@code cores} cores (a measured run's thread count). */
    public CpuSpec spec(int cores) {
        double clock = get(FitParameter.CLOCK);
        List<CacheLevel> caches = new ArrayList<>(base.caches().size());
        for (int i = 0; i < base.caches().size(); i++) {
            CacheLevel c = base.caches().get(i);
            double bw = c.bandwidthBytesPerSecond();
            for (FitParameter f : values.keySet()) {
                if (f.cacheIndex() == i && bw > 0) bw = get(f);
            }
            // A private level's bandwidth is per core times the cores running.
            if (!c.shared() && cores != base.cores()) bw = bw * cores / base.cores();
            caches.add(new CacheLevel(c.name(), c.sizeBytes(), c.ways(), c.lineBytes(), c.sectorBytes(),
                    c.latencyCycles(), c.shared(), bw));
        }
        BandwidthCurve curve = base.dram().bandwidth();
        double scale = get(FitParameter.DRAM_BANDWIDTH) / curve.peak();
        int[] pts = curve.cores();
        double[] bws = curve.bytesPerSecond();
        for (int i = 0; i < bws.length; i++) bws[i] *= scale;
        DramSpec dram = new DramSpec(base.dram().sizeBytes(), base.dram().latencySeconds(), new BandwidthCurve(pts, bws));
        KernelOverheads o = base.overheads();
        Map<String, Double> byFormat = new TreeMap<>();
        for (FitParameter f : values.keySet()) if (f.decodeFormat() != null) byFormat.put(f.decodeFormat(), get(f));
        KernelOverheads overheads = new KernelOverheads(get(FitParameter.LAUNCH_SECONDS), get(FitParameter.PER_ROW_CYCLES),
                get(FitParameter.PER_NNZ_CYCLES), o.tensorTileRows(), o.tensorTileCols(), o.gatherCycles(),
                Math.min(1, get(FitParameter.DENSE_EFFICIENCY)), o.tileStepCycles(), byFormat, get(FitParameter.FORK_JOIN_SECONDS),
                get(FitParameter.IMBALANCE_PENALTY));
        // Derived as SpecReader derives it: cores x clock x lanes x FMA ports x 2.
        Map<ComputeUnit, Map<DType, Double>> peaks = new EnumMap<>(ComputeUnit.class);
        Map<DType, Double> vector = new LinkedHashMap<>();
        vector.put(DType.F64, cores * clock * (base.simdBits() / 64.0) * base.fmaPorts() * 2);
        vector.put(DType.F32, cores * clock * (base.simdBits() / 32.0) * base.fmaPorts() * 2);
        peaks.put(ComputeUnit.VECTOR, vector);
        return new CpuSpec(base.name(), base.source(), cores, clock, base.simdBits(), base.fmaPorts(), caches, dram,
                new ComputePeaks(base.source(), peaks), overheads, base.missesInFlight(),
                base.model(), inCore());
    }
}
