package dev.sparseprof.hw;

import java.util.List;

/**
 * An NVIDIA-style GPU: {@code sms} streaming multiprocessors at {@code clockHertz}, each with its
 * own {@code l1} (the L1 part of the unified L1/shared array) and up to {@code sharedMemoryBytesPerSm}
 * of shared memory, one {@code l2} for all SMs, HBM in {@code dram}. {@code residentWarpsPerSm}
 * bounds how many warps (of {@code warpSize} threads) an SM keeps in flight.
 */
public record GpuSpec(String name, String source, int sms, double clockHertz, int warpSize, int residentWarpsPerSm,
                      CacheLevel l1, long sharedMemoryBytesPerSm, CacheLevel l2, DramSpec dram,
                      ComputePeaks peaks, KernelOverheads overheads) implements HardwareSpec {
    public GpuSpec {
        if (sms <= 0) throw new SpecException(source + ": gpu.sms must be positive");
        if (!(clockHertz > 0)) throw new SpecException(source + ": gpu.clock must be positive");
        if (warpSize <= 0 || residentWarpsPerSm <= 0) throw new SpecException(source + ": warp sizes must be positive");
        if (l1.shared()) throw new SpecException(source + ": gpu.l1 is per SM, it cannot be shared");
        if (!l2.shared()) throw new SpecException(source + ": gpu.l2 is shared by all SMs");
        if (sharedMemoryBytesPerSm < 0) throw new SpecException(source + ": gpu.sharedMemory must not be negative");
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
