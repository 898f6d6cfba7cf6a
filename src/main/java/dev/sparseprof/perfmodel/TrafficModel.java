package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.HardwareSpec;

/**
 * Where the bytes per memory level of a kernel come from. Contract: returns one entry per cache
 * level of {@code spec} plus DRAM, honours {@code features} (without index bytes, without misses
 * beyond the compulsory ones) and labels its {@link Traffic#source()}. {@link #ANALYTICAL} is the
 * capacity model of {@link AnalyticalTraffic}; a simulated model replays the kernel's trace
 * through a cache simulator.
 */
@FunctionalInterface
public interface TrafficModel {
    Traffic traffic(Workload w, KernelPlan plan, HardwareSpec spec, Features features);

    TrafficModel ANALYTICAL = (w, plan, spec, features) -> AnalyticalTraffic.estimate(plan.streams(), spec, features);
}
