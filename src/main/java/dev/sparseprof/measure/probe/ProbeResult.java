package dev.sparseprof.measure.probe;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one probe of this machine measured.
 *
 * @param cpuModel       {@code /proc/cpuinfo}'s model name (or os.arch when absent)
 * @param cores          processors the JVM sees
 * @param caches         the sysfs cache sizes the working sets were sized from
 * @param vectorBits     the preferred Vector API width of this JVM on this CPU
 * @param bandwidth      every measured bandwidth point
 * @param flops          every measured FMA throughput point
 * @param elapsedSeconds how long the probe took
 * @param kernels        the kernels' in-core rates ({@link KernelRateProbe}); null when that pass did not run
 */
public record ProbeResult(String cpuModel, int cores, CacheSizes caches, int vectorBits, List<BandwidthPoint> bandwidth,
                          List<FlopsPoint> flops, double elapsedSeconds, KernelRates kernels) {
    /** Without the kernel pass. */
    public ProbeResult(String cpuModel, int cores, CacheSizes caches, int vectorBits, List<BandwidthPoint> bandwidth,
                       List<FlopsPoint> flops, double elapsedSeconds) {
        this(cpuModel, cores, caches, vectorBits, bandwidth, flops, elapsedSeconds, null);
    }

    public ProbeResult {
        Objects.requireNonNull(cpuModel);
        Objects.requireNonNull(caches);
        bandwidth = List.copyOf(bandwidth);
        flops = List.copyOf(flops);
    }

    public ProbeResult withKernels(KernelRates k) {
        return new ProbeResult(cpuModel, cores, caches, vectorBits, bandwidth, flops, elapsedSeconds + k.elapsedSeconds(), k);
    }

    public Optional<BandwidthPoint> bandwidth(MemoryLevel level, StreamKernel kernel, int threads) {
        for (BandwidthPoint p : bandwidth) {
            if (p.level() == level && p.kernel() == kernel && p.threads() == threads) return Optional.of(p);
        }
        return Optional.empty();
    }

    public Optional<FlopsPoint> flops(int bits, int threads) {
        for (FlopsPoint p : flops) {
            if (p.bits() == bits && p.threads() == threads) return Optional.of(p);
        }
        return Optional.empty();
    }
}
