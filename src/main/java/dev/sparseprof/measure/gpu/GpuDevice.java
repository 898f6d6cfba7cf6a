package dev.sparseprof.measure.gpu;

import java.util.Objects;

/**
 * The GPU a session runs on, as the driver reports it.
 *
 * @param name               {@code cuDeviceGetName}
 * @param computeMajor       compute capability, major ({@code 8} for Ampere, {@code 9} for Hopper)
 * @param computeMinor       compute capability, minor
 * @param multiprocessors    SM count
 * @param memoryBytes        {@code cuDeviceTotalMem}
 * @param driverVersion      {@code cuDriverGetVersion} ({@code 13000} = CUDA 13.0)
 */
public record GpuDevice(String name, int computeMajor, int computeMinor, int multiprocessors, long memoryBytes,
                        int driverVersion) {
    public GpuDevice {
        Objects.requireNonNull(name);
    }

    /** True for sm_80 and later: the Sparse Tensor Cores {@code mma.sp} needs. */
    public boolean hasSparseTensorCores() {
        return computeMajor >= 8;
    }

    public String computeCapability() {
        return computeMajor + "." + computeMinor;
    }
}
