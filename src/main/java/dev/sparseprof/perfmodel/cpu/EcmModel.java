package dev.sparseprof.perfmodel.cpu;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.InCoreRates;
import dev.sparseprof.perfmodel.Features;
import dev.sparseprof.perfmodel.KernelPlan;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.perfmodel.Traffic;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.sparse.stats.BlockShape;
import java.util.List;

/**
 * The ECM (execution-cache-memory) model of a CPU kernel, Kerncraft's way, for a spec that
 * carries probed in-core rates ({@link InCoreRates}):
 * <ul>
 * <li>T_core: the kernel's loop counts at this SIMD width ({@link LoopNests}) times the probed
 *     cycles per unit, over the cores running, stretched by the schedule's imbalance and, on more
 *     than one core, by the slowest core's pace, alone or beside the others ({@link InCoreRates#coreStretch}:
 *     SMT siblings share a core's ports);
 * <li>T_L1L2, T_L2L3, T_L3Mem: the bytes the traffic model puts at L2, L3 and DRAM over each
 *     level's probed read bandwidth (the L2: the 1-core figure times the physical cores running,
 *     {@link CpuSpec#privateCacheInstances}, as SMT siblings share one L2; stretched by the imbalance; the L3: its all-cores figure, at most the 1-core figure times the cores
 *     running; DRAM: the curve at the cores running). L1 traffic is part of T_core (the rates were probed with every
 *     operand in L1). The L2 bytes of B's row gathers ({@link Traffic#gatherShares}) move at the
 *     probed gather rate ({@code hw.GatherRates}: a sustained CSR call over random rows of a B in
 *     L2; at its two-block rate where the kernel walks each row in two or more column blocks,
 *     {@link #blocksPerRow}), the rest at the streaming one; dense's matrix-vector product at N = 1
 *     takes its L2 and L3 bytes at the rates the probe measured for it ({@link #gemvBandwidth});
 * <li>composed as the probe found this machine composes them: between serial,
 *     {@code T = T_core + sum T_i} (Kerncraft's Intel model), and overlapped,
 *     {@code T = max(T_core, max T_i)}, by the probed overlap: {@code T = serial - overlap x
 *     (serial - overlapped)}; the dense kernel by its own probed overlap where the spec has one
 *     ({@link InCoreRates#overlapOf}: its streamed B block hides otherwise than csr's gathered rows),
 *     a kernel that gathers B's rows from L2 by the overlap of the probe's gather call ({@link #overlap}),
 *     the matrix-vector product, whose rates hold its in-core work, as their maximum;
 * <li>plus the call's fixed costs: launch and fork/join (probed) and the private copies of B
 *     ({@link #bCopySeconds}: the sparse kernels' aligned copies, the dense kernel's packed panels,
 *     each thread its own whole one).
 * </ul>
 * Which levels a call's bytes come from is the steady state of repeated calls ({@link #deepestLevel}):
 * back to back, the first level that holds the call's own footprint; taken in turn with other
 * kernels' calls ({@code interleaved}, as {@code measure} takes its repetitions), the first that
 * holds the call's footprint and what the others touched in between. A private level holds what its
 * own core touches ({@link #footprint}: its share of A and C, all of B, its own copy of B; the shares
 * and copies of both threads where two SMT siblings run on it), a shared one what all cores touch.
 * Nothing in it is fitted to a measured run: every rate comes from the probe.
 */
public final class EcmModel {
    private EcmModel() {}

    public static Prediction predict(Workload w, KernelPlan plan, CpuSpec spec, TrafficModel memory, Features features) {
        return predict(w, plan, spec, memory, features, Footprint.ZERO);
    }

    /**
     * {@link #predict(Workload, KernelPlan, CpuSpec, TrafficModel, Features)} of a call between two of
     * which other kernels' calls touch {@code interleaved} distinct bytes ({@link Footprint#ZERO}:
     * calls back to back).
     */
    public static Prediction predict(Workload w, KernelPlan plan, CpuSpec spec, TrafficModel memory, Features features, Footprint interleaved) {
        InCoreRates rates = spec.inCore();
        Traffic traffic = memory.traffic(w, plan, spec, features);
        double imbalance = features.loadImbalance() ? spec.overheads().penalizedImbalance(plan.balance().factor()) : 1;
        int lanes = spec.simdBits() / (8 * plan.computeDType().sizeBytes());
        long l2Bytes = spec.caches().size() > 1 ? spec.caches().get(1).sizeBytes() : Long.MAX_VALUE;
        LoopCounts counts = counts(w, plan, rates, lanes, l2Bytes);
        double core = inCoreSeconds(counts.cycles(rates), spec, imbalance);
        // the N:M decode pass, where the probe measured it alone: in series, nothing hides behind it
        double inSeries = inCoreSeconds(counts.serialCycles(rates), spec, imbalance);
        List<CacheLevel> caches = spec.caches();
        int deepest = deepestLevel(footprint(w, plan, spec).plus(interleaved), spec);
        double[] levelSeconds = new double[traffic.levels().size()];
        double serial = 0;
        double slowest = 0;
        String bottleneck = "compute";
        double roof = core;
        boolean gemv = gemvRatesApply(w, plan, rates);
        for (int i = 1; i < levelSeconds.length; i++) {
            double bandwidth = gemv ? gemvBandwidth(spec, i) : levelBandwidth(spec, i);
            double stretch = i < caches.size() && !caches.get(i).shared() ? imbalance : 1;
            double gatherBandwidth = i == 1 ? rates.l2Gather().perCoreBytesPerSecond(spec.cores(), blocksPerRow(counts, w.rows())) * spec.cores() : 0;
            double seconds = 0;
            if (bandwidth > 0 && i <= deepest) {
                double gathered = gatherBandwidth > 0 ? traffic.gatherBytesAt(i) : 0;
                seconds = ((traffic.bytesAt(i) - gathered) / bandwidth + (gathered > 0 ? gathered / gatherBandwidth : 0)) * stretch;
            }
            levelSeconds[i] = seconds;
            serial += levelSeconds[i];
            slowest = Math.max(slowest, levelSeconds[i]);
            if (levelSeconds[i] > roof) {
                roof = levelSeconds[i];
                bottleneck = traffic.levels().get(i);
            }
        }
        double serialTime = core + serial;
        double overlap = gemv ? 1 : overlap(rates, plan.format(), traffic, blocksPerRow(counts, w.rows()));
        double time = serialTime - overlap * (serialTime - Math.max(core, slowest)) + inSeries;
        double overhead = features.overheads() ? spec.overheads().launchSeconds(spec.cores()) + bCopySeconds(spec, w, plan.format()) : 0;
        if (overhead > time) bottleneck = "overhead";
        return new Prediction(plan, traffic, time + overhead, core + inSeries, levelSeconds, 0, overhead, imbalance, bottleneck);
    }

    /**
     * Whether the plan is dense's matrix-vector product at N = 1 on a spec whose probe measured that
     * product's own stream of A from L2 ({@code hw.OneColumnRates#gemvL2BytesPerSecond}): its bytes
     * then move at the product's rates ({@link #gemvBandwidth}), not the probe's one-stream reads, and,
     * as those were measured on whole calls with their in-core work in them, the levels and the core
     * compose as their maximum. (A spec holds the L2 rate only beside the product's in-core rates:
     * {@code hw.OneColumnRates} refuses it alone.)
     */
    private static boolean gemvRatesApply(Workload w, KernelPlan plan, InCoreRates rates) {
        return w.denseColumns() == 1 && plan.format().equals("dense") && rates.oneColumn().gemvL2Present();
    }

    /**
     * Level {@code i}'s bandwidth for the matrix-vector product ({@link #gemvRatesApply}): the L2 at its
     * probed L2 rate per core times the physical cores running (an L2 the cores share: at most its
     * all-cores figure, as {@link #levelBandwidth} takes it); the L3, where the probe measured the
     * product there, at that rate per core times the cores running, at most the L3's all-cores
     * figure; any other level as {@link #levelBandwidth}.
     */
    static double gemvBandwidth(CpuSpec spec, int i) {
        var r = spec.inCore().oneColumn();
        if (i == 1 && i < spec.caches().size()) {
            return spec.caches().get(i).shared() ? Math.min(levelBandwidth(spec, i), r.gemvL2BytesPerSecond() * spec.cores())
                    : r.gemvL2BytesPerSecond() * spec.privateCacheInstances();
        }
        if (i == 2 && i < spec.caches().size() && r.gemvL3Present()) return Math.min(levelBandwidth(spec, i), r.gemvL3BytesPerSecond() * spec.cores());
        return levelBandwidth(spec, i);
    }

    /**
     * The loop counts of the plan's kernel. At N = 1 csr, coo and N:M run the gather dot per row and
     * dense its matrix-vector product, each counted where the probe measured it; a probe that did not
     * (before 7 Dec 2026) measured the bodies the kernels ran at N = 1 then, which
     * {@link LoopNests#of} counts. SELL runs C = {@code lanes} rows a chunk (its model is not
     * supported at another width) and executes two FLOPs per slot and column of B, padding included,
     * so its slots are the plan's executed FLOPs over 2N (the plan laid the row lengths out as the
     * format stores them).
     */
    private static LoopCounts counts(Workload w, KernelPlan plan, InCoreRates rates, int lanes, long l2Bytes) {
        String format = plan.format();
        boolean oneColumn = w.denseColumns() == 1;
        if (isSell(format)) {
            return LoopNests.sell(Math.round(plan.executedFlops() / (2.0 * w.denseColumns())), w.rows(), lanes, w.denseColumns());
        }
        if (oneColumn && rates.oneColumn().spmvPresent() && LoopNests.gathersAtOneColumn(format)) {
            return LoopNests.oneColumn(format, w.rowLengths(), w.cols(), lanes);
        }
        if (oneColumn && rates.oneColumn().gemvPresent() && format.equals("dense")) return LoopNests.gemv(w.rows(), w.cols(), lanes);
        return LoopNests.of(format, w.rows(), w.cols(), w.denseColumns(), w.nnz(),
                format.startsWith("bsr") ? w.blocks(BlockShape.parse(format.substring(3))) : null, plan.executedFlops(), lanes, l2Bytes);
    }

    /**
     * The read bandwidth of level {@code i} (the caches innermost first, then DRAM) on the spec's
     * running cores: the L2 at the probed 1-core figure times the physical cores running, a shared
     * level at its all-cores figure but at most the 1-core figure times the cores running, DRAM at its
     * curve; the spec's figure where the probe gave no 1-core one (the L1, unprobed specs).
     */
    static double levelBandwidth(CpuSpec spec, int i) {
        InCoreRates rates = spec.inCore();
        if (i >= spec.caches().size()) return spec.dram().bandwidth().at(spec.cores());
        CacheLevel c = spec.caches().get(i);
        if (!c.shared()) {
            return i == 1 && rates.l2CoreBytesPerSecond() > 0 ? rates.l2CoreBytesPerSecond() * spec.privateCacheInstances() : c.bandwidthBytesPerSecond();
        }
        return rates.l3CoreBytesPerSecond() > 0 ? Math.min(c.bandwidthBytesPerSecond(), rates.l3CoreBytesPerSecond() * spec.cores())
                : c.bandwidthBytesPerSecond();
    }

    /** In-core {@code cycles} of one core's work as the call's seconds on all the spec's cores, at the slowest core's pace. */
    private static double inCoreSeconds(double cycles, CpuSpec spec, double imbalance) {
        return cycles / (spec.cores() * spec.clockHertz()) * imbalance * spec.inCore().coreStretch(spec.cores());
    }

    /**
     * The share of the smaller of in-core and transfer time a call hides: for a kernel that gathers
     * B's rows from L2, the overlap its gather rate was solved with ({@code hw.GatherRates#overlap},
     * at its blocks per row), since the two were measured together on the same call; else the
     * format's probed overlap ({@link InCoreRates#overlapOf}).
     */
    static double overlap(InCoreRates rates, String format, Traffic traffic, int blocks) {
        double fallback = rates.overlapOf(format);
        return rates.l2Gather().present() && traffic.levels().size() > 1 && traffic.gatherBytesAt(1) > 0
                ? rates.l2Gather().overlap(blocks, fallback) : fallback;
    }

    /**
     * How many column blocks the kernel walks each row in (the general path's 8-, 4-, 2- and
     * 1-vector blocks; 1 for the tight all-rows loops and kernels without blocks), whole blocks
     * rounded down: the gather rate of rows walked more than once ({@code hw.GatherRates}).
     */
    static int blocksPerRow(LoopCounts counts, int rows) {
        return rows > 0 ? (int) Math.max(1, Math.floor(counts.get(LoopBody.ROW_BLOCK) / rows + 1e-9)) : 1;
    }

    /** Whether {@code format} is a SELL-C-sigma layout ({@code sell-C-sigma}). */
    static boolean isSell(String format) {
        return format.startsWith("sell-");
    }

    /**
     * The index of the first cache level that holds {@code touched}, the bytes touched between two
     * calls of a kernel (its own footprint and what other calls touched in between), else DRAM's (the
     * caches' count): under LRU a line comes back from the first level whose capacity covers
     * everything touched since its last use (its stack distance). A private level (one instance per
     * core) holds what its core touched, a shared one what all cores touched. Calls back to back
     * find their own footprint where they left it; in {@code measure}'s rounds, where each format's
     * call waits for one call of every other format of the layer, a layer whose formats together
     * pass L2 reads its operands from L3 on every call even when its own footprint fits L2.
     */
    static int deepestLevel(Footprint touched, CpuSpec spec) {
        List<CacheLevel> caches = spec.caches();
        for (int i = 0; i < caches.size(); i++) {
            CacheLevel c = caches.get(i);
            if ((c.shared() ? touched.allCoresBytes() : touched.perCoreBytes()) <= c.sizeBytes()) return i;
        }
        return caches.size();
    }

    /**
     * The distinct bytes one call of the plan touches on the spec's cores: a stream split over the
     * cores (A's rows, C's rows) is a 1/cores share on each, a replicated one (B, which every core's
     * rows read) whole on each and once in a shared level, and each thread writes and reads its own
     * whole copy of B ({@link #bCopyBytesPerThread}), once per core in a shared level.
     */
    public static Footprint footprint(Workload w, KernelPlan plan, CpuSpec spec) {
        int cores = spec.cores();
        double split = 0;
        double replicated = 0;
        for (var d : plan.streams()) {
            if (d.replicated()) replicated += d.footprintBytes();
            else split += d.footprintBytes();
        }
        double copy = bCopyBytesPerThread(spec, w, plan.format());
        // SMT siblings' one private cache holds each thread's share and copy, and the arrays all of them read once
        double threadsPerCore = (double) cores / spec.privateCacheInstances();
        return new Footprint(threadsPerCore * (split / cores + copy) + replicated, split + replicated + copy * cores);
    }

    /**
     * The CPU sparse kernels' copies of B to 64-byte aligned places before each call
     * ({@code kernel.SpmmPlan}: fp32, K x N, each thread its own whole copy, read and written
     * once), a phase of its own before the kernel: all cores' bytes over the bandwidth of the first
     * level that holds every copy with its source (private levels: all cores' instances), else
     * DRAM's. The dense kernel ({@code kernel.DenseGemm}) does the same in its own way: each thread
     * packs the whole of B (every K block of every C block) into its zero-padded panels
     * ({@link LoopNests#densePaddedColumns} columns), since every thread's rows need all of B; so
     * on T threads this phase does not shrink to 1/T as the row tiles do.
     */
    public static double bCopySeconds(CpuSpec cpu, Workload w, String format) {
        double transpose = cpu.inCore().oneColumn().sellTransposeCycles();
        if (isSell(format) && transpose > 0) {
            // SELL transposes B instead (not at N = 1, where it reads B in place), element by element, each
            // thread its whole own copy at once: the probed rate per element, B in L2, at the slowest core's pace
            return bCopyBytesPerThread(cpu, w, format) / Float.BYTES * transpose / cpu.clockHertz() * cpu.inCore().coreStretch(cpu.cores());
        }
        double bytes = 2.0 * bCopyBytesPerThread(cpu, w, format) * cpu.cores();
        List<CacheLevel> caches = cpu.caches();
        for (int i = 0; i < caches.size(); i++) {
            CacheLevel c = caches.get(i);
            double capacity = c.shared() ? c.sizeBytes() : (double) c.sizeBytes() * cpu.privateCacheInstances();
            double bandwidth = levelBandwidth(cpu, i);
            if (bytes <= capacity && bandwidth > 0) return bytes / bandwidth;
        }
        return bytes / levelBandwidth(cpu, caches.size());
    }

    /**
     * The bytes of one thread's copy of B ({@link #bCopySeconds}): K x N fp32 (SELL's transposed
     * one too), K x the padded columns for dense; none at N = 1 for csr, coo and N:M (the gather dot),
     * dense (the matrix-vector product) and SELL, which read B itself.
     */
    static double bCopyBytesPerThread(CpuSpec cpu, Workload w, String format) {
        if (w.denseColumns() == 1 && (format.equals("dense") || LoopNests.gathersAtOneColumn(format) || isSell(format))) return 0;
        long columns = format.equals("dense") ? LoopNests.densePaddedColumns(w.denseColumns(), cpu.simdBits() / (8 * Float.BYTES))
                : w.denseColumns();
        return (double) w.cols() * columns * Float.BYTES;
    }
}
