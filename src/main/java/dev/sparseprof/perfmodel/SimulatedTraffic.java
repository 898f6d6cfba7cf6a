package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.GpuSpec;
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
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Trace-driven traffic: the format's CPU kernel ({@code kernel}'s traced twin, the same loop nest
 * as the fast path) runs on the layer's real matrix and pushes every access into the spec's cache
 * hierarchy ({@code memsim}, one private L1/L2 per core, shared L3), with the work split over the
 * spec's cores as the kernel splits it (nnz-balanced). Big layers are sampled: every s-th row, s
 * chosen so a replay stays under the access budget, plus samples of half and a quarter of that;
 * each level's bytes are fitted as fixed (B's first touch, scratch) plus per-work (A's rows, C,
 * B's capacity misses) and extrapolated to the whole layer, and the middle sample's distance from
 * the line through the other two is the sampling error. Where no traced kernel exists (formats other
 * than csr and dense; value types other than fp32; synthetic workloads without a matrix) it falls
 * back to {@link AnalyticalTraffic}, and says so in the source label. GPU specs replay the
 * GPU-style trace ({@link GpuSampledReplay}). That is this model as built with its constructor; the
 * default ({@link #checked}) takes the analytical traffic for every format and holds the replays
 * against it as checks ({@link Traffic#check()}): with replays as the traffic, formats without a
 * traced kernel and the dense baseline stand on different footings, and a GPU layer at LLM scale
 * takes minutes. Without {@code cacheMisses} it gives the analytical compulsory floor (capped per level
 * at the replay's bytes), so the gap breakdown's miss part is simulated minus compulsory, never negative. Replays are kept per workload and format, or per shape where the
 * trace depends on the shape alone (dense; CSR without zeros).
 */
public final class SimulatedTraffic implements TrafficModel {
    private static final Set<String> TRACED = Set.of("csr", "dense");
    private static final Set<ArrayRole> INDEX_ROLES = Set.of(ArrayRole.COLUMN_INDICES, ArrayRole.ROW_POINTERS, ArrayRole.METADATA);

    private final long accessBudget;
    private final Map<Workload, Map<String, Replay>> replays = new IdentityHashMap<>();
    private final Map<ShapeKey, Replay> byShape = new HashMap<>();
    private final Map<CheckKey, PendingCheck> checks = new HashMap<>();

    private final boolean checkOnly;

    /** Replays are the traffic; {@code accessBudget}: the most accesses one replay may push (the sample is sized from it). */
    public SimulatedTraffic(long accessBudget) {
        this(accessBudget, false);
    }

    private SimulatedTraffic(long accessBudget, boolean checkOnly) {
        if (accessBudget < 1000) throw new IllegalArgumentException("access budget too small");
        this.accessBudget = accessBudget;
        this.checkOnly = checkOnly;
    }

    /** The default model: analytical traffic, checked by replays ({@link #checked}). */
    public static SimulatedTraffic checked(long accessBudget) {
        return new SimulatedTraffic(accessBudget, true);
    }

    /**
     * One replay's per-level counts, summed over the private instances (a sample's own, or
     * extrapolated to the layer): bytes arriving at each level, bytes it passed to the next, the
     * index arrays' share of those; {@code label} says how it was sampled.
     */
    record Replay(List<String> levels, double[] arriving, double[] passed, double[] indexPassed, double[] missRates,
                  double samplingError, int stride, double work, String label) {}

    @Override
    public Traffic traffic(Workload w, KernelPlan plan, HardwareSpec spec, Features features) {
        if (checkOnly) return checked(w, plan, spec, features);
        String why = unsupported(w, plan, spec);
        if (why != null) {
            Traffic t = AnalyticalTraffic.estimate(plan.streams(), spec, features);
            return new Traffic(t.levels(), t.bytes(), t.missRates(), "analytical (" + why + ")", 0, t.gatherShares(), null);
        }
        Replay r = replayOf(w, plan.format(), spec);
        int n = r.levels().size();
        double[] bytes = new double[n + 1];
        for (int i = 0; i < n; i++) bytes[i] = i == 0 ? r.arriving()[0] : r.passed()[i - 1] - (features.indexBytes() ? 0 : r.indexPassed()[i - 1]);
        bytes[n] = r.passed()[n - 1] - (features.indexBytes() ? 0 : r.indexPassed()[n - 1]);
        if (!features.indexBytes()) bytes[0] = Math.max(0, bytes[0] - indexRequests(plan));
        List<String> names = new ArrayList<>(r.levels());
        names.add("DRAM");
        if (!features.cacheMisses()) {
            // The compulsory floor, never above what the replay moved: misses beyond it are >= 0.
            Traffic floor = AnalyticalTraffic.estimate(plan.streams(), spec, features);
            double[] fb = floor.bytes();
            if (fb.length == bytes.length) for (int i = 0; i < fb.length; i++) fb[i] = Math.min(fb[i], bytes[i]);
            return new Traffic(floor.levels(), fb, floor.missRates(), floor.source(), 0, floor.gatherShares(), null);
        }
        double[] miss = new double[n + 1];
        System.arraycopy(r.missRates(), 0, miss, 0, n);
        // The replay counts no arrays apart at every level: the row gathers' shares are the analytical model's.
        double[] shares = AnalyticalTraffic.estimate(plan.streams(), spec, features).gatherShares();
        return new Traffic(names, bytes, miss, r.label(), r.samplingError(), shares.length == n + 1 ? shares : new double[n + 1], null);
    }

    private Replay run(Workload w, String format, HardwareSpec spec) {
        return spec instanceof GpuSpec g ? GpuSampledReplay.replay(w, format, g, accessBudget) : replay(w, format, spec);
    }

    /** The replay of a layer as per-level bytes (innermost cache's arrivals, then each level's bytes passed on, DRAM last). */
    private Replay replayOf(Workload w, String format, HardwareSpec spec) {
        return shapeOnly(w, format)
                ? byShape.computeIfAbsent(new ShapeKey(format, w.rows(), w.cols(), w.denseColumns(), w.dtype(), spec), k -> run(w, format, spec))
                : replays.computeIfAbsent(w, k -> new IdentityHashMap<>()).computeIfAbsent(format, f -> run(w, f, spec));
    }

    /**
     * The default: the analytical traffic of the format's plan (tile-level on a GPU), one footing
     * for every format and layer size, the one the calibrated CPU parameters and the published GPU
     * validation use; where a traced kernel exists, the memsim replay checks it ({@link TrafficCheck},
     * one check per format, shape, N and density to 1 %): on a GPU a replay of a row and N sample on
     * every SM ({@link GpuReplayCheck}), on a CPU this model's sampled replay of the layer, compared
     * at the levels below the innermost (whose arrivals the replay counts in lines, the model in bytes).
     * The replay is made when the check is first read ({@link PendingCheck}), on the first layer of its key.
     */
    private Traffic checked(Workload w, KernelPlan plan, HardwareSpec spec, Features features) {
        Traffic t = AnalyticalTraffic.estimate(plan.streams(), spec, features);
        PendingCheck check = null;
        String format = plan.format();
        boolean traced = spec.isGpu() ? TRACED.contains(format) && w.matrix() != null : unsupported(w, plan, spec) == null;
        if (features.cacheMisses() && features.indexBytes() && traced) {
            CheckKey key = new CheckKey(format, w.rows(), w.cols(), w.denseColumns(), w.dtype(), spec,
                    format.equals("dense") ? 100 : Math.round(100 * (1 - w.sparsity())));
            // The first layer of the key is the one sampled, whenever the check is read.
            check = checks.computeIfAbsent(key, k -> new PendingCheck(
                    () -> spec instanceof GpuSpec g ? GpuReplayCheck.of(w, format, g, accessBudget) : cpuCheck(w, format, spec, t)));
        }
        return t.withCheck(CHECKED_SOURCE, check);
    }

    private TrafficCheck cpuCheck(Workload w, String format, HardwareSpec spec, Traffic analytical) {
        Replay r = replayOf(w, format, spec);
        int n = r.levels().size();
        List<String> names = new ArrayList<>();
        double[] replay = new double[n];
        double[] model = new double[n];
        for (int i = 0; i < n; i++) {
            names.add(i + 1 < n ? r.levels().get(i + 1) : "DRAM");
            replay[i] = r.passed()[i];
            model[i] = analytical.bytesAt(i + 1);
        }
        return new TrafficCheck(w.name(), w.rows() + "x" + w.cols() + "x" + w.denseColumns() + " (" + r.label().replace("simulated (", "").replace(")", "") + ")",
                names, replay, model);
    }

    /** The source label of the default traffic. */
    static final String CHECKED_SOURCE = "analytical (memsim-checked where a traced kernel exists)";

    /** A check's key: format, shape, N, dtype, spec and density in whole percent. */
    private record CheckKey(String format, int rows, int cols, long denseColumns, DType dtype, HardwareSpec spec, long densityPercent) {}

    /**
     * Whether the replay depends on the layer's shape alone: the dense kernel touches every entry
     * whatever the values, and so does CSR on a matrix with no zeros. Such layers of one shape
     * (the six encoder layers of a model) share one replay.
     */
    private static boolean shapeOnly(Workload w, String format) {
        return format.equals("dense") || format.equals("csr") && w.nnz() == (long) w.rows() * w.cols();
    }

    /** A replay's key when it depends on the shape alone. */
    private record ShapeKey(String format, int rows, int cols, long denseColumns, DType dtype, HardwareSpec spec) {}

    static String unsupported(Workload w, KernelPlan plan, HardwareSpec spec) {
        if (!TRACED.contains(plan.format())) return "no traced " + plan.format() + " kernel";
        if (w.dtype() != DType.F32 && !(spec.isGpu() && w.dtype().sizeBytes() <= 4 && w.dtype().isFloatingPoint())) return "traced kernels are fp32";
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
        Replay full = run(kernel, w, spec, stride);
        if (stride == 1) return full;
        // Samples of 1/s, 1/(2s) and 1/(4s) of the rows: traffic = fixed + per-work x work, fitted
        // and extrapolated to the whole layer; the middle sample's residual is the sampling error.
        List<Replay> samples = new ArrayList<>(List.of(full));
        for (int f = 2; f <= 4 && w.rows() / (stride * f) >= Math.max(2, spec.parallelUnits()); f *= 2) {
            samples.add(run(kernel, w, spec, stride * f));
        }
        if (samples.size() < 2) return scaledLinearly(full, w.nnz() > 0 && !format.equals("dense") ? w.nnz() : w.rows(), stride);
        double work = format.equals("dense") ? w.rows() : w.nnz();
        int n = full.levels().size();
        double[] arriving = new double[n];
        double[] passed = new double[n];
        double[] indexPassed = new double[n];
        double[] works = new double[samples.size()];
        for (int i = 0; i < works.length; i++) works[i] = samples.get(i).work();
        for (int l = 0; l < n; l++) {
            // The whole layer moves at least what its largest sample moved.
            arriving[l] = Math.max(full.arriving()[l], extrapolate(works, samples, l, 0, work));
            passed[l] = Math.max(full.passed()[l], extrapolate(works, samples, l, 1, work));
            indexPassed[l] = Math.min(passed[l], Math.max(full.indexPassed()[l], extrapolate(works, samples, l, 2, work)));
        }
        double error = 0;
        if (samples.size() == 3) {
            double[] two = {works[0], works[2]};
            double middle = samples.get(1).passed()[n - 1];
            double fit = extrapolate(two, List.of(samples.get(0), samples.get(2)), n - 1, 1, works[1]);
            error = middle > 0 ? Math.abs(fit - middle) / middle : 0;
        }
        return new Replay(full.levels(), arriving, passed, indexPassed, full.missRates(), error, stride, work, sampledLabel(stride));
    }

    /** One quantity ({@code which}: 0 arriving, 1 passed, 2 index passed) at one level, least-squares line in work, at {@code work}. */
    private static double extrapolate(double[] works, List<Replay> samples, int level, int which, double work) {
        double mw = 0;
        double mq = 0;
        int k = works.length;
        double[] q = new double[k];
        for (int i = 0; i < k; i++) {
            Replay r = samples.get(i);
            q[i] = which == 0 ? r.arriving()[level] : which == 1 ? r.passed()[level] : r.indexPassed()[level];
            mw += works[i] / k;
            mq += q[i] / k;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < k; i++) {
            sxy += (works[i] - mw) * (q[i] - mq);
            sxx += (works[i] - mw) * (works[i] - mw);
        }
        double slope = sxx > 0 ? Math.max(0, sxy / sxx) : 0;
        double fixed = Math.max(0, mq - slope * mw);
        return Math.max(0, fixed + slope * work);
    }

    /** When only one sample fits: everything scaled by the sampled share (an upper bound for the fixed part). */
    private static Replay scaledLinearly(Replay r, double work, int stride) {
        double f = r.work() > 0 ? work / r.work() : 1;
        int n = r.levels().size();
        double[] a = new double[n];
        double[] p = new double[n];
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = r.arriving()[i] * f;
            p[i] = r.passed()[i] * f;
            x[i] = r.indexPassed()[i] * f;
        }
        return new Replay(r.levels(), a, p, x, r.missRates(), Double.NaN, stride, work, sampledLabel(stride));
    }

    /** Replays rows 0, s, 2s, ... of the layer; the counts are the sample's own, with its work (non-zeros, or rows for dense). */
    private static Replay run(SpmmKernel<?> kernel, Workload w, HardwareSpec spec, int stride) {
        MatrixView sample = sampledRows(w.matrix(), stride);
        int n = (int) Math.min(Integer.MAX_VALUE, w.denseColumns());
        int threads = Math.min(spec.parallelUnits(), sample.rows());
        Hierarchy h = new Hierarchy(CacheSpecs.fromHardware(spec, threads));
        TraceSink[] sinks = new TraceSink[threads];
        for (int t = 0; t < threads; t++) sinks[t] = h.core(t);
        TracedRun.trace(kernel, sample, new TracedRun.Settings(n, threads, Partitions.byName("nnz"), 1 << 20, 64), sinks);
        h.close();
        long sampledNnz = 0;
        for (int r = 0; r < w.rows(); r += stride) sampledNnz += w.rowLengths().get(r);
        double work = kernel.name().equals("dense") ? sample.rows() : sampledNnz;
        return summarise(h.measured(), spec, stride, work);
    }

    /**
     * Sums the private instances of each level (the snapshot lists them one by one): references
     * that reached the level (times its line), the bytes it passed on (Dinero's bytes from and to
     * memory), the share of those that belong to index arrays (by their misses and write-backs).
     */
    private static Replay summarise(HierarchyStats stats, HardwareSpec spec, int stride, double work) {
        List<String> names = new ArrayList<>();
        List<double[]> sums = new ArrayList<>(); // fetches, misses, bytes passed on, index misses+write-backs, all misses+write-backs
        for (LevelStats l : stats.levels()) {
            String name = baseName(l.name());
            int i = names.indexOf(name);
            if (i < 0) {
                names.add(name);
                sums.add(new double[5]);
                i = names.size() - 1;
            }
            double[] s = sums.get(i);
            s[0] += l.fetches().total();
            s[1] += l.misses().total();
            s[2] += l.bytesFromBelow() + l.bytesToBelow();
            for (ArrayRole r : ArrayRole.values()) {
                long events = l.roles().misses(r) + l.roles().writeBacks(r);
                if (INDEX_ROLES.contains(r)) s[3] += events;
                s[4] += events;
            }
        }
        int n = names.size();
        double[] arriving = new double[n];
        double[] passed = new double[n];
        double[] indexPassed = new double[n];
        double[] missRates = new double[n];
        for (int i = 0; i < n; i++) {
            double[] s = sums.get(i);
            int line = spec.cacheLevels().get(Math.min(i, spec.cacheLevels().size() - 1)).lineBytes();
            arriving[i] = s[0] * line;
            passed[i] = s[2];
            indexPassed[i] = s[4] > 0 ? s[2] * s[3] / s[4] : 0;
            missRates[i] = s[0] > 0 ? s[1] / s[0] : 0;
        }
        return new Replay(names, arriving, passed, indexPassed, missRates, 0, stride, work, sampledLabel(stride));
    }

    private static String sampledLabel(int stride) {
        return stride == 1 ? "simulated (memsim, all rows)" : "simulated (memsim, 1 in " + stride + " rows and sparser samples, extrapolated)";
    }

    /** {@code L1d#0} (core 0's instance of a private level) is a part of {@code L1d}. */
    static String baseName(String instance) {
        int hash = instance.indexOf('#');
        return hash < 0 ? instance : instance.substring(0, hash);
    }

    /** Rows {@code 0, stride, 2 stride, ...} of {@code m} as a view (the whole matrix when stride is 1). */
    static MatrixView sampledRows(MatrixView m, int stride) {
        if (stride == 1) return m;
        int rows = (m.rows() + stride - 1) / stride;
        return new MatrixView() {
            @Override public int rows() { return rows; }
            @Override public int cols() { return m.cols(); }
            @Override public void copyRow(int row, float[] dst, int off) { m.copyRow(row * stride, dst, off); }
        };
    }
}
