package dev.sparseprof.measure.probe;

import java.util.Objects;

/**
 * One measured bandwidth: {@code kernel} over a working set sized for {@code level}, on {@code threads}
 * threads. Rates count the kernel's bytes ({@link StreamKernel#bytesPerElement()}) over all threads.
 *
 * @param workingSetBytes      the bytes of all arrays of all threads together
 * @param medianBytesPerSecond the median over the trials (the figure the overlay uses)
 * @param bestBytesPerSecond   the fastest trial (STREAM's convention), for comparison
 */
public record BandwidthPoint(MemoryLevel level, StreamKernel kernel, int threads, long workingSetBytes,
                             double medianBytesPerSecond, double bestBytesPerSecond) {
    public BandwidthPoint {
        Objects.requireNonNull(level);
        Objects.requireNonNull(kernel);
        if (threads <= 0 || workingSetBytes <= 0) throw new IllegalArgumentException("threads and working set must be positive");
        if (!(medianBytesPerSecond > 0) || !(bestBytesPerSecond >= medianBytesPerSecond)) {
            throw new IllegalArgumentException("bandwidths must be positive with best >= median");
        }
    }
}
