package dev.sparseprof.calibrate;

import dev.sparseprof.hw.BandwidthCurve;
import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputePeaks;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.DramSpec;
import dev.sparseprof.hw.KernelOverheads;
import dev.sparseprof.util.DType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values of every {@link FitParameter} for one CPU spec, and the spec they make. Bandwidths and the
 * clock are absolute (bytes/s, Hz); a cache level the spec has no bandwidth for stays without one.
 */
public final class CpuParameters {
    private final CpuSpec base;
    private final double[] values = new double[FitParameter.values().length];

    private CpuParameters(CpuSpec base) {
        this.base = base;
    }

    /** The values the spec holds. */
    public static CpuParameters of(CpuSpec spec) {
        CpuParameters p = new CpuParameters(spec);
        for (FitParameter f : FitParameter.values()) {
            int c = f.cacheIndex();
            p.values[f.ordinal()] = switch (f) {
                case L1_BANDWIDTH, L2_BANDWIDTH, L3_BANDWIDTH -> c < spec.caches().size() ? spec.caches().get(c).bandwidthBytesPerSecond() : 0;
                case DRAM_BANDWIDTH -> spec.dram().bandwidth().peak();
                case PER_ROW_CYCLES -> spec.overheads().perRowCycles();
                case PER_NNZ_CYCLES -> spec.overheads().perNnzCycles();
                case LAUNCH_SECONDS -> spec.overheads().launchSeconds();
                case CLOCK -> spec.clockHertz();
            };
        }
        return p;
    }

    public double get(FitParameter f) {
        return values[f.ordinal()];
    }

    public CpuParameters with(FitParameter f, double value) {
        CpuParameters p = new CpuParameters(base);
        System.arraycopy(values, 0, p.values, 0, values.length);
        p.values[f.ordinal()] = value;
        return p;
    }

    /** True when the parameter is a positive quantity the spec uses (a level without bandwidth is not). */
    public boolean isActive(FitParameter f) {
        return values[f.ordinal()] > 0;
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
            for (FitParameter f : FitParameter.values()) {
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
        KernelOverheads overheads = new KernelOverheads(get(FitParameter.LAUNCH_SECONDS), get(FitParameter.PER_ROW_CYCLES),
                get(FitParameter.PER_NNZ_CYCLES), o.tensorTileRows(), o.tensorTileCols());
        // Derived as SpecReader derives it: cores x clock x lanes x FMA ports x 2.
        Map<ComputeUnit, Map<DType, Double>> peaks = new EnumMap<>(ComputeUnit.class);
        Map<DType, Double> vector = new LinkedHashMap<>();
        vector.put(DType.F64, cores * clock * (base.simdBits() / 64.0) * base.fmaPorts() * 2);
        vector.put(DType.F32, cores * clock * (base.simdBits() / 32.0) * base.fmaPorts() * 2);
        peaks.put(ComputeUnit.VECTOR, vector);
        return new CpuSpec(base.name(), base.source(), cores, clock, base.simdBits(), base.fmaPorts(), caches, dram,
                new ComputePeaks(base.source(), peaks), overheads);
    }
}
