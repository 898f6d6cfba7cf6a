package dev.sparseprof.hw;

/** Main memory: capacity (0 when not given), latency and bandwidth by active core count. */
public record DramSpec(long sizeBytes, double latencySeconds, BandwidthCurve bandwidth) {
    public DramSpec {
        if (sizeBytes < 0) throw new SpecException("dram: size must not be negative");
        if (!(latencySeconds >= 0)) throw new SpecException("dram: latency must not be negative");
        if (bandwidth == null) throw new SpecException("dram: bandwidth is required");
    }
}
