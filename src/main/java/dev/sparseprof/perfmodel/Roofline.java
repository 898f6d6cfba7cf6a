package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.cpu.EcmModel;
import dev.sparseprof.perfmodel.cpu.Footprint;
import java.util.List;

/**
 * The cache-aware roofline: one roof per memory level that has a bandwidth in the spec (bytes the
 * traffic model puts at that level over its bandwidth; DRAM at the bandwidth of the active cores),
 * one compute roof for the plan's unit and dtype. The slowest unit sets the time of work spread
 * over cores/SMs, so compute and the private levels are stretched by the imbalance factor (the
 * schedule's, weighed by the spec's {@code imbalancePenalty}); shared levels are not. Compute runs at the plan's efficiency (a dense GEMM's achievable fraction of
 * peak); on a CPU the gathers add a latency roof (memory-level parallelism, see
 * {@link #latencySeconds}); a GPU sparse kernel's chains of dependent loads are a latency roof of
 * their own ({@link KernelPlan#chainSeconds}). Fixed overheads add on top (they do not overlap the roofs in this model).
 */
public final class Roofline {
    private Roofline() {}

    public static Prediction predict(Workload w, KernelPlan plan, HardwareSpec spec, TrafficModel memory, Features features) {
        return predict(w, plan, spec, memory, features, Footprint.ZERO);
    }

    /**
     * {@link #predict(Workload, KernelPlan, HardwareSpec, TrafficModel, Features)} of a call that
     * other kernels' calls alternate with, touching {@code interleaved} between two of its calls
     * ({@link EcmModel#deepestLevel}); the roofline path charges every level's bytes whatever the
     * steady state, so only the ECM path reads it.
     */
    public static Prediction predict(Workload w, KernelPlan plan, HardwareSpec spec, TrafficModel memory, Features features,
                                     Footprint interleaved) {
        // a GEMM that runs with probability w.runs() (a routed expert in a small batch) costs that share of a run
        return predictRun(w, plan, spec, memory, features, interleaved).expected(w.runs());
    }

    private static Prediction predictRun(Workload w, KernelPlan plan, HardwareSpec spec, TrafficModel memory, Features features,
                                         Footprint interleaved) {
        // A CPU spec with probed in-core rates takes the ECM model (perfmodel.cpu), whose every rate is probed.
        if (spec instanceof CpuSpec cpu && cpu.inCore().present()) return EcmModel.predict(w, plan, cpu, memory, features, interleaved);
        Traffic traffic = memory.traffic(w, plan, spec, features);
        // A GPU GEMM's bytes are its tile schedule's whatever the memory model: a replay may check
        // them (the default checked model keeps its check), never replace them.
        if (traffic.simulated() && TiledGemm.ownsTraffic(plan, spec)) traffic = TrafficModel.ANALYTICAL.traffic(w, plan, spec, features);
        double imbalance = features.loadImbalance() ? spec.overheads().penalizedImbalance(plan.balance().factor()) : 1;
        double compute = plan.executedFlops() / (spec.peaks().flopsPerSecond(plan.unit(), plan.computeDType()) * plan.computeEfficiency())
                * imbalance;
        List<CacheLevel> caches = spec.cacheLevels();
        double[] levelSeconds = new double[traffic.levels().size()];
        double l1Fill = spec instanceof GpuSpec && !TiledGemm.ownsTraffic(plan, spec) ? gpuL1FillBytes(plan, traffic, features) : 0;
        double roof = compute;
        String bottleneck = "compute";
        for (int i = 0; i < levelSeconds.length; i++) {
            double bandwidth;
            double stretch = 1;
            if (i < caches.size()) {
                CacheLevel c = caches.get(i);
                bandwidth = c.bandwidthBytesPerSecond();
                if (!c.shared()) stretch = imbalance;
            } else {
                bandwidth = spec.dram().bandwidth().at(spec.parallelUnits());
            }
            double bytes = traffic.bytesAt(i) + (i == 0 ? l1Fill : 0);
            levelSeconds[i] = bandwidth > 0 ? bytes / bandwidth * stretch : Double.NaN;
            if (levelSeconds[i] > roof) {
                roof = levelSeconds[i];
                bottleneck = traffic.levels().get(i);
            }
        }
        double latency = features.cacheMisses() ? latencySeconds(plan, spec, traffic) * imbalance : 0;
        latency = Math.max(latency, plan.chainSeconds()); // a warp's own chain: neither stretched nor hidden
        if (latency > roof) {
            roof = latency;
            bottleneck = "latency";
        }
        double overhead = features.overheads() ? plan.overheadSeconds() : 0;
        if (features.overheads() && spec instanceof GpuSpec g && !TiledGemm.ownsTraffic(plan, spec)) {
            // The framework's host time per call floors every GPU kernel's call, as it does the GEMMs'
            // (whose plans carry it themselves); 0 under the default runtime.
            overhead = Math.max(overhead, g.runtime().denseHostSeconds() - roof);
        }
        if (overhead > roof) bottleneck = "overhead";
        return new Prediction(plan, traffic, roof + overhead, compute, levelSeconds, latency, overhead, imbalance, bottleneck);
    }

    /**
     * The bytes a GPU kernel's loads fill into the L1 from the L2: what the L1 passes on to the L2
     * less the streams that bypass it ({@link DataStream#bypassL1}: atomics, {@code cp.async.cg}) and
     * the stores ({@link DataStream#store}: the L1 is write-through, a store fetches no line). A plain
     * {@code ld.global} is {@code ld.ca}, which "allocates cache lines in all levels (L1 and L2)" (PTX
     * ISA, cache operators, V; Sputnik's {@code __ldg} is {@code ld.global.nc}, also cached in the
     * L1/texture array), and the L1 data array is the SM's one L1/shared SRAM (192 KB unified per SM
     * on A100, V), so each missed sector is written into it before it is read out: a second pass
     * over the spec's {@code l1.bandwidth} beside the request's read (U: 128 B per clock for the fill
     * as for the reads, the rule {@code gpu.BlockTensorSpmm#SRAM_PASSES_BEFORE_OPERANDS} applies to its
     * own loads). Not for the tiled GEMMs, whose shared-memory passes their plan counts itself.
     */
    static double gpuL1FillBytes(KernelPlan plan, Traffic traffic, Features features) {
        if (traffic.levels().size() < 3) return 0; // an L1 without an L2 behind it: nothing modelled fills it
        double passed = traffic.bytesAt(1);
        for (DataStream d : plan.streams()) {
            if (!(d.bypassL1() || d.store())) continue;
            if (d.index() && !features.indexBytes()) continue; // never requested under these features
            // A bypassing stream passes on all it requests; a store its write-through, its bytes once.
            passed -= d.bypassL1() ? d.requestBytes() : Math.min(d.requestBytes(), d.footprintBytes());
        }
        return Math.max(0, passed);
    }

    /**
     * The latency roof of a CPU kernel's gathers (Little's law): each gathered B row slice starts at
     * an address no prefetcher predicts, so its first line waits for the level that holds it; a core
     * keeps {@code missesInFlight} such misses outstanding, so gathers take at least
     * {@code gathers x expected extra latency / (missesInFlight x cores x clock)}. The expected
     * extra latency beyond an L1 hit is {@code sum over levels l >= 1 of (product of the miss rates
     * above l) x (latency(l) - latency(l-1))}, with DRAM's latency last. 0 on GPUs (other warps hide
     * latency there) and for kernels without gathers.
     */
    static double latencySeconds(KernelPlan plan, HardwareSpec spec, Traffic traffic) {
        if (!(spec instanceof CpuSpec cpu) || plan.sliceGathers() <= 0) return 0;
        List<CacheLevel> caches = cpu.caches();
        double reach = 1;
        double extraCycles = 0;
        double previous = caches.get(0).latencyCycles();
        for (int l = 1; l <= caches.size(); l++) {
            reach *= traffic.missRate(l - 1);
            double latency = l < caches.size() ? caches.get(l).latencyCycles() : cpu.dram().latencySeconds() * cpu.clockHertz();
            extraCycles += reach * Math.max(0, latency - previous);
            previous = latency;
        }
        return plan.sliceGathers() * extraCycles / ((double) cpu.missesInFlight() * cpu.cores() * cpu.clockHertz());
    }
}
