package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.HardwareSpec;
import java.util.List;

/**
 * The cache-aware roofline: one roof per memory level that has a bandwidth in the spec (bytes the
 * traffic model puts at that level over its bandwidth; DRAM at the bandwidth of the active cores),
 * one compute roof for the plan's unit and dtype. The slowest unit sets the time of work spread
 * over cores/SMs, so compute and the private levels are stretched by the imbalance factor; shared
 * levels are not. Fixed overheads add on top (they do not overlap the roofs in this model).
 */
public final class Roofline {
    private Roofline() {}

    public static Prediction predict(Workload w, KernelPlan plan, HardwareSpec spec, TrafficModel memory, Features features) {
        Traffic traffic = memory.traffic(w, plan, spec, features);
        double imbalance = features.loadImbalance() ? plan.balance().factor() : 1;
        double compute = plan.executedFlops() / spec.peaks().flopsPerSecond(plan.unit(), plan.computeDType()) * imbalance;
        List<CacheLevel> caches = spec.cacheLevels();
        double[] levelSeconds = new double[traffic.levels().size()];
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
            levelSeconds[i] = bandwidth > 0 ? traffic.bytesAt(i) / bandwidth * stretch : Double.NaN;
            if (levelSeconds[i] > roof) {
                roof = levelSeconds[i];
                bottleneck = traffic.levels().get(i);
            }
        }
        double overhead = features.overheads() ? plan.overheadSeconds() : 0;
        if (overhead > roof) bottleneck = "overhead";
        return new Prediction(plan, traffic, roof + overhead, compute, levelSeconds, overhead, imbalance, bottleneck);
    }
}
