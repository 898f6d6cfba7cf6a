package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.TracedRun;
import dev.sparseprof.memsim.CacheSpecs;
import dev.sparseprof.memsim.Hierarchy;
import dev.sparseprof.memsim.HierarchyStats;
import dev.sparseprof.memsim.LevelStats;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Trace-driven traffic: the format's CPU kernel ({@code kernel}'s traced twin, the same loop nest
 * as the fast path) runs on the layer's real matrix and pushes every access into the spec's cache
 * hierarchy ({@code memsim}, one private L1/L2 per core, shared L3), with the work split over the
 * spec's cores as the kernel splits it (nnz-balanced). Big layers are sampled: every s-th row, s
 * chosen so a replay stays under the access budget; bytes are scaled array by array (see
 * {@code summarise}: the rows' arrays by the sampled share of the work, B's first touch not at
 * all), and a second, interleaved sample gives the sampling error (the relative difference of the
 * two estimates of DRAM bytes). Where no traced kernel exists (GPU specs: no warp/sector trace
 * generator has landed; formats other than csr and dense; value types other than fp32; synthetic
 * workloads without a matrix) it falls back to {@link AnalyticalTraffic}, and says so in the
 * source label. Without {@code cacheMisses} it gives the analytical compulsory floor, so the gap
 * breakdown's miss part is simulated minus compulsory. Replays are kept per workload and format.
 */
public final class SimulatedTraffic implements TrafficModel {
    private static final Set<String> TRACED = Set.of("csr", "dense");
    private static final Set<ArrayRole> INDEX_ROLES = Set.of(ArrayRole.COLUMN_INDICES, ArrayRole.ROW_POINTERS, ArrayRole.METADATA);

    private final long accessBudget;
    private final Map<Workload, Map<String, Replay>> replays = new IdentityHashMap<>();

    /** {@code accessBudget}: the most accesses one replay may push (the sample is sized from it). */
    public SimulatedTraffic(long accessBudget) {
        if (accessBudget < 1000) throw new IllegalArgumentException("access budget too small");
        this.accessBudget = accessBudget;
    }

    /** One replay's per-level counts, already summed over the private instances and scaled to the whole layer. */
    private record Replay(List<String> levels, double[] arriving, double[] passed, double[] indexPassed, double[] missRates,
                          double samplingError, int stride) {}

    @Override
    public Traffic traffic(Workload w, KernelPlan plan, HardwareSpec spec, Features features) {
        String why = unsupported(w, plan, spec);
        if (why != null) {
            Traffic t = AnalyticalTraffic.estimate(plan.streams(), spec, features);
            return new Traffic(t.levels(), t.bytes(), t.missRates(), "analytical (" + why + ")", 0);
        }
        if (!features.cacheMisses()) return AnalyticalTraffic.estimate(plan.streams(), spec, features);
        Replay r = replays.computeIfAbsent(w, k -> new IdentityHashMap<>()).computeIfAbsent(plan.format(), f -> replay(w, f, spec));
        int n = r.levels().size();
        double[] bytes = new double[n + 1];
        for (int i = 0; i < n; i++) bytes[i] = i == 0 ? r.arriving()[0] : r.passed()[i - 1] - (features.indexBytes() ? 0 : r.indexPassed()[i - 1]);
        bytes[n] = r.passed()[n - 1] - (features.indexBytes() ? 0 : r.indexPassed()[n - 1]);
        if (!features.indexBytes()) bytes[0] = Math.max(0, bytes[0] - indexRequests(plan));
        List<String> names = new ArrayList<>(r.levels());
        names.add("DRAM");
        double[] miss = new double[n + 1];
        System.arraycopy(r.missRates(), 0, miss, 0, n);
        String source = r.stride() == 1 ? "simulated (memsim, all rows)" : "simulated (memsim, 1 in " + r.stride() + " rows)";
        return new Traffic(names, bytes, miss, source, r.samplingError());
    }

    static String unsupported(Workload w, KernelPlan plan, HardwareSpec spec) {
        if (spec.isGpu()) return "no GPU trace generator";
        if (!TRACED.contains(plan.format())) return "no traced " + plan.format() + " kernel";
        if (w.dtype() != DType.F32) return "traced kernels are fp32";
        if (w.matrix() == null) return "no matrix";
        return null;
    }

    private static double indexRequests(KernelPlan plan) {
        double b = 0;
        for (DataStream d : plan.streams()) if (d.index()) b += d.requestBytes();
        return b;
    }

    private Replay replay(Workload w, String format, HardwareSpec spec) {
        SpmmKernel<?> kernel = Kernels.byName(format);
        double perRow = format.equals("dense") ? (double) w.cols() : Math.max(1, (double) w.nnz() / w.rows());
        double accessesPerEntry = Math.ceil(w.denseColumns() / 16.0) + 1;
        double total = perRow * w.rows() * accessesPerEntry;
        int stride = (int) Math.max(1, Math.min(w.rows(), Math.ceil(total / accessBudget)));
        Replay first = run(kernel, w, spec, stride, 0);
        if (stride == 1) return first;
        Replay second = run(kernel, w, spec, stride, stride / 2);
        double a = first.passed()[first.passed().length - 1];
        double b = second.passed()[second.passed().length - 1];
        double error = a + b > 0 ? Math.abs(a - b) / (a + b) : 0;
        return new Replay(first.levels(), first.arriving(), first.passed(), first.indexPassed(), first.missRates(), error, stride);
    }

    private static Replay run(SpmmKernel<?> kernel, Workload w, HardwareSpec spec, int stride, int offset) {
        MatrixView sample = sampledRows(w.matrix(), stride, offset);
        int n = (int) Math.min(Integer.MAX_VALUE, w.denseColumns());
        int threads = Math.min(spec.parallelUnits(), sample.rows());
        Hierarchy h = new Hierarchy(CacheSpecs.fromHardware(spec, threads));
        TraceSink[] sinks = new TraceSink[threads];
        for (int t = 0; t < threads; t++) sinks[t] = h.core(t);
        TracedRun.trace(kernel, sample, new TracedRun.Settings(n, threads, Partitions.byName("nnz"), 1 << 20, 64), sinks);
        h.close();
        long sampledNnz = 0;
        for (int r = offset; r < w.rows(); r += stride) sampledNnz += w.rowLengths().get(r);
        double scale = kernel.name().equals("dense") || sampledNnz == 0 ? (double) w.rows() / sample.rows()
                : (double) w.nnz() / sampledNnz;
        return summarise(h.measured(), spec, w, threads, scale, stride);
    }

    /**
     * Sums the private instances of each level (the snapshot lists them one by one) and scales the
     * sample to the whole layer, array by array: the bytes a level passes on (Dinero's bytes from
     * and to memory) are apportioned to the arrays by their misses and write-backs. Arrays split over the rows (A, C) scale with the sampled share; the
     * replicated B does not: its first touch (its footprint once per cache instance) happens once
     * whatever the sample, and only the misses beyond it scale.
     */
    private static Replay summarise(HierarchyStats stats, HardwareSpec spec, Workload w, int threads, double scale, int stride) {
        List<String> names = new ArrayList<>();
        List<double[]> byRole = new ArrayList<>(); // bytes passed on per role
        List<double[]> counts = new ArrayList<>(); // fetches, misses, bytes passed on (from and to the next level)
        for (LevelStats l : stats.levels()) {
            String name = baseName(l.name());
            int i = names.indexOf(name);
            if (i < 0) {
                names.add(name);
                byRole.add(new double[ArrayRole.COUNT]);
                counts.add(new double[3]);
                i = names.size() - 1;
            }
            int line = spec.cacheLevels().get(Math.min(i, spec.cacheLevels().size() - 1)).lineBytes();
            for (ArrayRole r : ArrayRole.values()) byRole.get(i)[r.ordinal()] += (double) (l.roles().misses(r) + l.roles().writeBacks(r)) * line;
            counts.get(i)[0] += l.fetches().total();
            counts.get(i)[1] += l.misses().total();
            counts.get(i)[2] += l.bytesFromBelow() + l.bytesToBelow();
        }
        int n = names.size();
        double[] arriving = new double[n];
        double[] passed = new double[n];
        double[] indexPassed = new double[n];
        double[] missRates = new double[n];
        double bBytes = (double) w.cols() * w.denseColumns() * Float.BYTES;
        for (int i = 0; i < n; i++) {
            boolean shared = spec.cacheLevels().get(Math.min(i, spec.cacheLevels().size() - 1)).shared();
            double firstTouch = bBytes * (shared ? 1 : threads);
            double[] roles = byRole.get(i);
            double roleTotal = 0;
            for (double b : roles) roleTotal += b;
            // The level's real bytes, apportioned to the arrays by their misses and write-backs.
            double toBytes = roleTotal > 0 ? counts.get(i)[2] / roleTotal : 0;
            for (ArrayRole r : ArrayRole.values()) {
                double b = roles[r.ordinal()] * toBytes;
                double scaled = r == ArrayRole.B_GATHER ? Math.min(b, firstTouch) + Math.max(0, b - firstTouch) * scale : b * scale;
                passed[i] += scaled;
                if (INDEX_ROLES.contains(r)) indexPassed[i] += scaled;
            }
            int line = spec.cacheLevels().get(Math.min(i, spec.cacheLevels().size() - 1)).lineBytes();
            arriving[i] = counts.get(i)[0] * line * scale;
            missRates[i] = counts.get(i)[0] > 0 ? counts.get(i)[1] / counts.get(i)[0] : 0;
        }
        return new Replay(names, arriving, passed, indexPassed, missRates, 0, stride);
    }

    /** {@code L1d#0} (core 0's instance of a private level) is a part of {@code L1d}. */
    private static String baseName(String instance) {
        int hash = instance.indexOf('#');
        return hash < 0 ? instance : instance.substring(0, hash);
    }

    /** Rows {@code offset, offset + stride, ...} of {@code m} as a view (the whole matrix when stride is 1). */
    private static MatrixView sampledRows(MatrixView m, int stride, int offset) {
        if (stride == 1) return m;
        int rows = Math.max(1, (m.rows() - offset + stride - 1) / stride);
        return new MatrixView() {
            @Override public int rows() { return rows; }
            @Override public int cols() { return m.cols(); }
            @Override public void copyRow(int row, float[] dst, int off) { m.copyRow(Math.min(m.rows() - 1, offset + row * stride), dst, off); }
        };
    }
}
