package dev.sparseprof.hw;

import java.util.List;

/**
 * An NVIDIA-style GPU: {@code sms} streaming multiprocessors at {@code clockHertz}, each with its
 * own {@code l1} (the L1 part of the unified L1/shared array) and up to {@code sharedMemoryBytesPerSm}
 * of shared memory, one {@code l2} for all SMs, HBM in {@code dram}. {@code residentWarpsPerSm}
 * bounds how many warps (of {@code warpSize} threads) an SM keeps in flight; with
 * {@code registersPerSm}, the shared memory and {@code maxBlocksPerSm} it sets how many thread
 * blocks of a kernel are resident at once (occupancy). {@code arch} is the SM generation the
 * tensor-core kernels target ({@code sm80} Ampere mma.sync/mma.sp, {@code sm90} Hopper wgmma);
 * {@code runtime} the software stack the GEMMs run under (the spec's {@code runtime:} section,
 * {@link Runtimes#DEFAULT} without one).
 */
public record GpuSpec(String name, String source, int sms, double clockHertz, int warpSize, int residentWarpsPerSm,
                      CacheLevel l1, long sharedMemoryBytesPerSm, CacheLevel l2, DramSpec dram,
                      ComputePeaks peaks, KernelOverheads overheads, int registersPerSm, int maxBlocksPerSm, String arch,
                      RuntimeSpec runtime) implements HardwareSpec {
    /** 32-bit registers per SM when the spec gives none (64 K on Volta to Hopper, CUDA C++ Programming Guide, compute capability table; U here). */
    public static final int DEFAULT_REGISTERS_PER_SM = 65536;
    /** Resident thread blocks per SM when the spec gives none (32 on compute capability 8.0 and 9.0, same table; U here). */
    public static final int DEFAULT_MAX_BLOCKS_PER_SM = 32;

    public GpuSpec {
        if (sms <= 0) throw new SpecException(source + ": gpu.sms must be positive");
        if (!(clockHertz > 0)) throw new SpecException(source + ": gpu.clock must be positive");
        if (warpSize <= 0 || residentWarpsPerSm <= 0) throw new SpecException(source + ": warp sizes must be positive");
        if (l1.shared()) throw new SpecException(source + ": gpu.l1 is per SM, it cannot be shared");
        if (!l2.shared()) throw new SpecException(source + ": gpu.l2 is shared by all SMs");
        if (sharedMemoryBytesPerSm < 0) throw new SpecException(source + ": gpu.sharedMemory must not be negative");
        if (registersPerSm <= 0 || maxBlocksPerSm <= 0) throw new SpecException(source + ": gpu.registersPerSm and gpu.maxBlocksPerSm must be positive");
        if (!"sm80".equals(arch) && !"sm90".equals(arch)) throw new SpecException(source + ": gpu.arch must be sm80 or sm90, got '" + arch + "'");
        if (runtime == null) throw new SpecException(source + ": a GPU spec needs a runtime");
    }

    /** An Ampere-generation GPU under the default runtime. */
    public GpuSpec(String name, String source, int sms, double clockHertz, int warpSize, int residentWarpsPerSm,
                   CacheLevel l1, long sharedMemoryBytesPerSm, CacheLevel l2, DramSpec dram, ComputePeaks peaks, KernelOverheads overheads,
                   int registersPerSm, int maxBlocksPerSm) {
        this(name, source, sms, clockHertz, warpSize, residentWarpsPerSm, l1, sharedMemoryBytesPerSm, l2, dram, peaks, overheads,
                registersPerSm, maxBlocksPerSm, "sm80", Runtimes.byName(Runtimes.DEFAULT));
    }

    /** The same GPU under another software stack. */
    public GpuSpec withRuntime(RuntimeSpec r) {
        return new GpuSpec(name, source, sms, clockHertz, warpSize, residentWarpsPerSm, l1, sharedMemoryBytesPerSm, l2, dram, peaks, overheads,
                registersPerSm, maxBlocksPerSm, arch, r);
    }

    public boolean hopper() {
        return arch.equals("sm90");
    }

    /** Without occupancy limits in the spec: {@link #DEFAULT_REGISTERS_PER_SM}, {@link #DEFAULT_MAX_BLOCKS_PER_SM}. */
    public GpuSpec(String name, String source, int sms, double clockHertz, int warpSize, int residentWarpsPerSm,
                   CacheLevel l1, long sharedMemoryBytesPerSm, CacheLevel l2, DramSpec dram, ComputePeaks peaks, KernelOverheads overheads) {
        this(name, source, sms, clockHertz, warpSize, residentWarpsPerSm, l1, sharedMemoryBytesPerSm, l2, dram, peaks, overheads,
                DEFAULT_REGISTERS_PER_SM, DEFAULT_MAX_BLOCKS_PER_SM);
    }

    @Override
    public int parallelUnits() {
        return sms;
    }

    @Override
    public List<CacheLevel> cacheLevels() {
        return List.of(l1, l2);
    }

    public double hbmBytesPerSecond() {
        return dram.bandwidth().peak();
    }
}
