package dev.sparseprof.measure;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.util.MatrixView;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Zen 4 check's slow spells (docs/kernels.md, "Allocation-free row bodies"): the same kernels on
 * one fixed layer of the bundled MiniLM, in 100 ms slots for a while, each slot printing per kernel
 * the median call, the heap bytes allocated per call and the process's page faults per call. Nothing
 * changes between slots but the JVM's heap, so a slow slot with faults is the JVM's, not the data's.
 * <pre>
 * java --add-modules jdk.incubator.vector -XX:UseAVX=2 -Dlayer=layer.0/attention/self/query
 *   -Dsparsity=0.95 -Dbatch=64 -Dseconds=25 -Dformats=csr,coo,dense
 *   -cp target/classes:target/test-classes:DEPS dev.sparseprof.measure.FreshPageExperiment
 * </pre>
 */
public final class FreshPageExperiment {
    private static final long SLOT_NANOS = 100_000_000L;

    public static void main(String[] args) {
        String layer = System.getProperty("layer", "layer.0/attention/self/query");
        double sparsity = Double.parseDouble(System.getProperty("sparsity", "0.95"));
        int batch = Integer.getInteger("batch", 64);
        double seconds = Double.parseDouble(System.getProperty("seconds", "25"));
        String[] formats = System.getProperty("formats", "csr,coo,dense").split(",");
        MatrixView view = null;
        try (Model m = Models.openDefault()) {
            for (GemmLayer l : m.layers()) {
                if (l.name().contains(layer)) {
                    view = Pruning.magnitude(l.name(), l.matrix(), sparsity);
                    System.out.println("# " + l.name() + " at " + sparsity + ", N = " + batch + ", 1 thread");
                    break;
                }
            }
        }
        if (view == null) throw new IllegalArgumentException("no layer matches " + layer);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] calls = new double[1 << 20];
        try (WorkerPool pool = WorkerPool.pinned(1); PageFaults faults = PageFaults.open()) {
            List<CpuRunner.Prepared<?>> kernels = new ArrayList<>();
            for (String f : formats) {
                kernels.add(CpuRunner.prepare(Kernels.byName(f), view,
                        new CpuRunner.Request(layer, batch, 1, new NnzBalancedPartition(), TimingConfig.defaults())));
            }
            System.out.println("# uptime s, then per kernel (" + String.join(", ", formats) + "): median us, heap bytes and page faults per call");
            long[] threadNanos = new long[1];
            long start = System.nanoTime();
            while (System.nanoTime() - start < seconds * 1e9) {
                StringBuilder line = new StringBuilder(String.format("%7.2f", ManagementFactory.getRuntimeMXBean().getUptime() / 1e3));
                for (CpuRunner.Prepared<?> k : kernels) {
                    long bytes = threads.getTotalThreadAllocatedBytes();
                    long faulted = faults.count();
                    int count = 0;
                    long slot = System.nanoTime();
                    while (System.nanoTime() - slot < SLOT_NANOS && count < calls.length) {
                        long t0 = System.nanoTime();
                        k.plan().run(k.b(), k.c(), pool, threadNanos);
                        calls[count++] = (System.nanoTime() - t0) / 1e3;
                    }
                    double bytesPerCall = (threads.getTotalThreadAllocatedBytes() - bytes) / (double) count;
                    double faultsPerCall = (faults.count() - faulted) / (double) count;
                    Arrays.sort(calls, 0, count);
                    line.append(String.format("  %8.2f %6.0f B %5.2f pf", calls[count / 2], bytesPerCall, faultsPerCall));
                }
                System.out.println(line);
            }
        }
    }
}
