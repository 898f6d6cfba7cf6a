package dev.sparseprof.hw;

import java.util.List;

/**
 * A machine the performance model predicts for: a GPU or a CPU.
 *
 * <p>Contract: {@link #cacheLevels()} lists the caches innermost first (GPU: the per-SM L1, then the
 * shared L2; CPU: L1d, L2, L3), which is the order a cache simulator builds its hierarchy in;
 * {@link #parallelUnits()} is the count of SMs or cores; {@link #privateCacheInstances()} how many
 * instances of each private (non-shared) cache level those units use; {@link #source()} is the spec
 * file's name, used in every error about the spec.
 */
public sealed interface HardwareSpec permits GpuSpec, CpuSpec {
    String name();

    String source();

    double clockHertz();

    int parallelUnits();

    /** Instances of each private cache level under the parallel units: one per unit unless units share a core's (SMT siblings). */
    default int privateCacheInstances() {
        return parallelUnits();
    }

    List<CacheLevel> cacheLevels();

    DramSpec dram();

    ComputePeaks peaks();

    KernelOverheads overheads();

    default boolean isGpu() {
        return this instanceof GpuSpec;
    }
}
