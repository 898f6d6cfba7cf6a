package dev.sparseprof.bench;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.util.MatrixView;
import java.util.Random;

/** Quick look: kernels at one shape. Args: M K N threads sparsity formats... */
public final class KernelQuickBench {
    public static void main(String[] args) {
        int m = Integer.parseInt(args[0]), k = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        double sparsity = Double.parseDouble(args[4]);
        float[] a = new float[m * k];
        Random rnd = new Random(1);
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() >= sparsity) a[i] = rnd.nextFloat() - 0.5f;
        MatrixView view = MatrixView.of(m, k, a);
        try (WorkerPool pool = new WorkerPool(threads)) {
            for (int f = 5; f < args.length; f++) {
                SpmmKernel<?> kernel = Kernels.byName(args[f]);
                Measurement r = CpuRunner.measure(kernel, view,
                        new CpuRunner.Request("bench", n, threads, Partitions.byName("nnz"), new TimingConfig(Integer.getInteger("warm", 5), 0.3, 30)), pool);
                System.out.printf("%-10s %dx%dx%d t=%d s=%.2f median %.3f ms  %.1f GFLOP/s  %.1f GB/s imb %.2f%n", args[f], m, k, n,
                        threads, sparsity, r.medianSeconds() * 1e3, r.gflops(), r.effectiveGBps(), r.timing().imbalance());
            }
        }
    }
}
