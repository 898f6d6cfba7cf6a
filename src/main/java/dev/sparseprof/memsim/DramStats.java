package dev.sparseprof.memsim;

/**
 * What the DRAM model saw: requests and bursts, row-buffer outcomes per burst, bytes moved, and
 * the summed latency of the requests. Time estimate: the larger of bytes over peak bandwidth and
 * summed latency over memory-level parallelism (the misses that cannot overlap).
 */
public record DramStats(long requests, long bursts, long rowHits, long rowMisses, long rowConflicts,
                        long bytesRead, long bytesWritten, double latencySumSeconds,
                        double peakBandwidthBytesPerSecond, double memoryLevelParallelism) {
    public long bytesMoved() {
        return bytesRead + bytesWritten;
    }

    public double bandwidthBoundSeconds() {
        return bytesMoved() / peakBandwidthBytesPerSecond;
    }

    public double latencyBoundSeconds() {
        return latencySumSeconds / memoryLevelParallelism;
    }

    public double timeSeconds() {
        return Math.max(bandwidthBoundSeconds(), latencyBoundSeconds());
    }

    public DramStats minus(DramStats o) {
        return new DramStats(requests - o.requests, bursts - o.bursts, rowHits - o.rowHits, rowMisses - o.rowMisses,
                rowConflicts - o.rowConflicts, bytesRead - o.bytesRead, bytesWritten - o.bytesWritten,
                latencySumSeconds - o.latencySumSeconds, peakBandwidthBytesPerSecond, memoryLevelParallelism);
    }
}
