package dev.sparseprof.measure.probe;

import dev.sparseprof.util.CpuName;
import dev.sparseprof.util.Median;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import jdk.incubator.vector.DoubleVector;

/**
 * Measures this machine's limits the way Kerncraft's likwid-bench step does, in Java: read and triad
 * bandwidth with working sets sized into L1, L2, L3 and DRAM (half of each level, three quarters of L1d on one thread, at least four times
 * the level below; L3 capped at 32 MiB), for one thread and for all, and peak FMA throughput (fp64, fp32) for one thread
 * and all. Private levels give each thread its own working set of that size; L3 and DRAM split one
 * working set among the threads.
 */
public final class MachineProbe {
    private final ProbeSettings settings;
    private final CacheSizes caches;

    public MachineProbe(ProbeSettings settings, CacheSizes caches) {
        this.settings = settings;
        this.caches = caches;
    }

    public ProbeResult run() {
        long t0 = System.nanoTime();
        warmUpJit();
        List<BandwidthPoint> bw = new ArrayList<>();
        int[] teams = settings.allThreads() == 1 ? new int[] {1} : new int[] {1, settings.allThreads()};
        for (MemoryLevel level : MemoryLevel.values()) {
            for (StreamKernel kernel : StreamKernel.values()) {
                for (int threads : teams) bw.add(bandwidth(level, kernel, threads));
            }
        }
        List<FlopsPoint> fl = new ArrayList<>();
        for (int bits : new int[] {64, 32}) {
            for (int threads : teams) fl.add(flops(bits, threads));
        }
        return new ProbeResult(CpuName.ofThisMachine(), Runtime.getRuntime().availableProcessors(), caches,
                DoubleVector.SPECIES_PREFERRED.vectorBitSize(), bw, fl, (System.nanoTime() - t0) * 1e-9);
    }

    /**
     * Runs every loop often enough on small arrays that the JIT has compiled it (C2) before the first
     * timed trial; without this the first points measure the interpreter.
     */
    static void warmUpJit() {
        double[] a = new double[1024];
        double[] b = new double[1024];
        double[] c = new double[1024];
        MemorySegment stream = StreamLoops.alignedDoubles(1024, 1.0);
        double sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += StreamLoops.read(stream, 1 + (i & 7));
            StreamLoops.triad(a, b, c, 1.0);
            sink += FmaLoops.fp64(64) + FmaLoops.fp32(64);
        }
        Blackhole.consume(sink);
    }

    /**
     * Bytes of all arrays of one thread for {@code level} on a team of {@code threads}. L1: three
     * quarters of L1d for one thread, half for a team (two threads of a team may be SMT siblings on
     * one core's L1). The longer a pass over L1, the less its per-pass cost (the loop's exit and
     * entry, some 40 cycles) weighs: on the Intel Xeon VM (model 167, 48 KiB L1d, 512 bits) one
     * thread read 8 / 24 / 36 KiB at 67 / 87 / 91-94 B/clk.
     */
    long perThreadBytes(MemoryLevel level, int threads) {
        return switch (level) {
            case L1 -> threads == 1 ? caches.l1dBytes() / 4 * 3 : caches.l1dBytes() / 2;
            case L2 -> Math.max(caches.l2Bytes() / 2, 4 * caches.l1dBytes());
            case L3 -> Math.max(Math.min(caches.l3Bytes() / 2, 32L << 20), 4 * caches.l2Bytes() * threads) / threads;
            case DRAM -> settings.dramWorkingSetBytes() / threads;
        };
    }

    BandwidthPoint bandwidth(MemoryLevel level, StreamKernel kernel, int threads) {
        long bytes = perThreadBytes(level, threads);
        int elements = (int) Math.max(64, bytes / (8L * kernel.arrays()));
        ProbeWork probe = streamWork(kernel, elements);
        int reps = ThreadTeam.repsFor(probe, settings.minTrialSeconds());
        double[] seconds = ThreadTeam.timeTrials(threads, t -> streamWork(kernel, elements), reps, settings.trials());
        double moved = (double) kernel.bytesPerElement() * elements * reps * threads;
        return new BandwidthPoint(level, kernel, threads, 8L * kernel.arrays() * elements * threads,
                moved / Median.of(seconds), moved / min(seconds));
    }

    FlopsPoint flops(int bits, int threads) {
        ProbeWork one = fmaWork(bits);
        int reps = ThreadTeam.repsFor(one, settings.minTrialSeconds());
        double[] seconds = ThreadTeam.timeTrials(threads, t -> fmaWork(bits), reps, settings.trials());
        double work = FmaLoops.flops(bits, (long) FMA_ITERATIONS * reps) * threads;
        return new FlopsPoint(bits, threads, work / Median.of(seconds), work / min(seconds));
    }

    private static final int FMA_ITERATIONS = 4096;

    private static ProbeWork fmaWork(int bits) {
        return reps -> bits == 64 ? FmaLoops.fp64((long) FMA_ITERATIONS * reps) : FmaLoops.fp32((long) FMA_ITERATIONS * reps);
    }

    private static ProbeWork streamWork(StreamKernel kernel, int elements) {
        if (kernel == StreamKernel.READ) {
            MemorySegment stream = StreamLoops.alignedDoubles(elements, 1.0);
            return reps -> StreamLoops.read(stream, reps);
        }
        double[] a = new double[elements];
        Arrays.fill(a, 1.0);
        double[] b = new double[elements];
        double[] c = new double[elements];
        Arrays.fill(b, 2.0);
        Arrays.fill(c, 0.5);
        return reps -> {
            for (int r = 0; r < reps; r++) StreamLoops.triad(a, b, c, 3.0);
            return a[elements / 2];
        };
    }

    private static double min(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double x : v) m = Math.min(m, x);
        return m;
    }

}
