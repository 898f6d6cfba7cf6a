package dev.sparseprof.measure.gpu;

import dev.sparseprof.util.SparseprofException;

/** No usable GPU: no driver ({@code libcuda.so.1}), {@code cuInit} failed, or the device is too old. One line. */
public final class GpuUnavailableException extends SparseprofException {
    public GpuUnavailableException(String reason) {
        super("no GPU: " + reason);
    }
}
