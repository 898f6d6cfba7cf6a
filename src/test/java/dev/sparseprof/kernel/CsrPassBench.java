package dev.sparseprof.kernel;

import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.util.MatrixView;
import java.util.Random;

/**
 * Side-by-side timing of csr's column passes ({@link CsrSpmm#passColumns}) in one JVM: the same matrix
 * with the passes sized by L2s of the given KiB (0: one pass, as if L2 were unbounded), alternated
 * {@code rounds} times. Args: M K N threads sparsity rounds l2KiB...
 */
public final class CsrPassBench {
    private CsrPassBench() {}

    public static void main(String[] args) {
        int m = Integer.parseInt(args[0]), k = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        double sparsity = Double.parseDouble(args[4]);
        int rounds = Integer.parseInt(args[5]);
        float[] a = new float[m * k];
        Random rnd = new Random(1);
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() >= sparsity) a[i] = rnd.nextFloat() - 0.5f;
        MatrixView view = MatrixView.of(m, k, a);
        try (WorkerPool pool = new WorkerPool(threads)) {
            for (int round = 0; round < rounds; round++) {
                for (int f = 6; f < args.length; f++) {
                    long kib = Long.parseLong(args[f]);
                    long l2 = kib == 0 ? Long.MAX_VALUE / 4 : kib << 10;
                    CsrSpmm kernel = new CsrSpmm(SliceKernel.SliceFormat.CSR, l2);
                    int pass = CsrSpmm.passColumns(k, n, BroadcastRows.L, l2);
                    Measurement r = CpuRunner.measure(kernel, view,
                            new CpuRunner.Request("bench", n, threads, Partitions.byName("nnz"), new TimingConfig(5, 0.3, 30)), pool);
                    System.out.printf("round %d l2 %7s KiB pass %3d: %dx%dx%d t=%d s=%.2f median %.3f ms  %.1f GFLOP/s%n", round,
                            kib == 0 ? "inf" : String.valueOf(kib), pass, m, k, n, threads, sparsity, r.medianSeconds() * 1e3, r.gflops());
                }
            }
        }
    }
}
