package dev.sparseprof.measure.gpu;

import jcuda.driver.CUdeviceptr;

/** One allocation in GPU memory owned by a {@link GpuSession} (freed when the session closes). */
public final class DeviceBuffer {
    private final CUdeviceptr pointer;
    private final long sizeBytes;

    DeviceBuffer(CUdeviceptr pointer, long sizeBytes) {
        this.pointer = pointer;
        this.sizeBytes = sizeBytes;
    }

    CUdeviceptr pointer() {
        return pointer;
    }

    public long sizeBytes() {
        return sizeBytes;
    }
}
