package dev.sparseprof.bench;

import dev.sparseprof.kernel.CoreCaches;
import dev.sparseprof.kernel.DenseGemm;
import dev.sparseprof.kernel.KernelVectors;
import dev.sparseprof.measure.probe.CacheSizes;
import dev.sparseprof.measure.probe.MachineProbe;
import dev.sparseprof.measure.probe.MemoryLevel;
import dev.sparseprof.measure.probe.ProbeResult;
import dev.sparseprof.measure.probe.ProbeSettings;
import dev.sparseprof.measure.probe.StreamKernel;
import dev.sparseprof.util.JsonWriter;

/**
 * The roof side of {@code scripts/bench-kernels.sh}: this machine's one-thread L1 and L2 read
 * bandwidth and fp32 FMA peak from the probe of {@code calibrate --probe} ({@link MachineProbe},
 * one thread, 64 MiB DRAM set, 300 trials of at least 0.2 ms; each figure the best trial, STREAM's
 * convention: a roof is a bound, and on a shared machine a long trial or the median measures the
 * other tenants: a trial shorter than a scheduler slice often runs alone), the kernels' vector
 * width and the dense tiling, as one JSON line. The probe's loads and FMAs run at the JVM's preferred
 * width ({@code probeVectorBits}): {@code scripts/bench-kernels.sh} runs it once per kernel width with
 * that width's JVM flags, so a 256-bit kernel (AVX2 code) is judged against what 256-bit loads and
 * FMAs reach on this core, not against a 512-bit probe scaled down.
 */
public final class KernelRoofProbe {
    private KernelRoofProbe() {}

    public static void main(String[] args) {
        ProbeResult r = new MachineProbe(new ProbeSettings(300, 2e-4, 64L << 20, 1), CacheSizes.ofThisMachine()).run();
        CoreCaches caches = CoreCaches.ofThisMachine();
        JsonWriter w = new JsonWriter();
        w.beginObject()
                .field("probeVectorBits", r.vectorBits())
                .field("kernelVectorBits", KernelVectors.FLOATS.vectorBitSize())
                .field("l1ReadBytesPerSecond", r.bandwidth(MemoryLevel.L1, StreamKernel.READ, 1).orElseThrow().bestBytesPerSecond())
                .field("l2ReadBytesPerSecond", r.bandwidth(MemoryLevel.L2, StreamKernel.READ, 1).orElseThrow().bestBytesPerSecond())
                .field("l3ReadBytesPerSecond", r.bandwidth(MemoryLevel.L3, StreamKernel.READ, 1).orElseThrow().bestBytesPerSecond())
                .field("fp32FlopsPerSecond", r.flops(32, 1).orElseThrow().bestFlopsPerSecond())
                .field("l1dBytes", caches.l1dBytes()).field("l2Bytes", caches.l2Bytes()).field("cachesFromSysfs", caches.fromSysfs())
                .field("kernelVectors", KernelVectors.describe())
                .field("denseTiling", DenseGemm.tiling().describe()).field("denseTileRows", DenseGemm.tiling().rows())
                .field("probeSeconds", r.elapsedSeconds())
                .endObject();
        System.out.println(w.toString().replace("\n", " ").trim());
    }
}
