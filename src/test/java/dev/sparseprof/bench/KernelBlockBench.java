package dev.sparseprof.bench;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.util.MatrixView;
import java.util.Random;

/**
 * Side by side in one run: the given kernels on one M x K matrix at 90% (or the given) sparsity,
 * pruned two ways with the same seed: element-random, and R x C block-pruned (whole blocks kept
 * with probability 1 - sparsity, every element of a kept block non-zero). Prints the medians and
 * each kernel's time over csr's on the same matrix. Args: M K N threads sparsity R C formats...
 * Run with {@code scripts/bench-kernels-block.sh}.
 */
public final class KernelBlockBench {
    public static void main(String[] args) {
        int m = Integer.parseInt(args[0]), k = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        double sparsity = Double.parseDouble(args[4]);
        int br = Integer.parseInt(args[5]), bc = Integer.parseInt(args[6]);
        try (WorkerPool pool = new WorkerPool(threads)) {
            for (int pruning = 0; pruning < 2; pruning++) {
                MatrixView view = pruning == 0 ? random(m, k, sparsity) : blocks(m, k, br, bc, sparsity);
                String label = pruning == 0 ? "random" : br + "x" + bc + "-blocks";
                double csrSeconds = Double.NaN;
                for (int f = 7; f < args.length; f++) {
                    Measurement r = CpuRunner.measure(Kernels.byName(args[f]), view, new CpuRunner.Request("bench", n, threads,
                            Partitions.byName("nnz"), new TimingConfig(Integer.getInteger("warm", 5), 0.3, 30)), pool);
                    if (args[f].equals("csr")) csrSeconds = r.medianSeconds();
                    System.out.printf("%-13s %-9s %dx%dx%d t=%d s=%.2f median %8.3f ms  %6.1f GFLOP/s  %6.1f GB/s  time/csr %s%n", label, args[f],
                            m, k, n, threads, sparsity, r.medianSeconds() * 1e3, r.gflops(), r.effectiveGBps(),
                            Double.isNaN(csrSeconds) ? "-" : String.format("%.2f", r.medianSeconds() / csrSeconds));
                }
            }
        }
    }

    private static MatrixView random(int m, int k, double sparsity) {
        float[] a = new float[m * k];
        Random rnd = new Random(1);
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() >= sparsity) a[i] = rnd.nextFloat() - 0.5f;
        return MatrixView.of(m, k, a);
    }

    private static MatrixView blocks(int m, int k, int br, int bc, double sparsity) {
        float[] a = new float[m * k];
        Random rnd = new Random(1);
        for (int i0 = 0; i0 < m; i0 += br) {
            for (int p0 = 0; p0 < k; p0 += bc) {
                if (rnd.nextDouble() < sparsity) continue;
                for (int i = i0; i < Math.min(m, i0 + br); i++) {
                    for (int p = p0; p < Math.min(k, p0 + bc); p++) a[i * k + p] = rnd.nextFloat() - 0.5f + 1e-3f;
                }
            }
        }
        return MatrixView.of(m, k, a);
    }
}
