package dev.sparseprof.measure.probe;

import dev.sparseprof.kernel.DenseGemm;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Random;

/** Issue 12 experiment: dense ns per vector FMA by rows, K, N and A's values, in one JVM. */
public final class DenseRateExperiment {
    public static void main(String[] args) {
        WorkerPool one = WorkerPool.pinned(1);
        int lanes = DenseGemm.tiling().lanes();
        System.out.println("tiling " + DenseGemm.tiling());
        boolean probe = !Boolean.getBoolean("noprobe");
        boolean probeFirst = args.length > 0 && args[0].equals("probe-first");
        if (probeFirst && probe) probe();
        int[] ks = Arrays.stream(System.getProperty("ks", "48,384").split(",")).mapToInt(Integer::parseInt).toArray();
        int[] ns = Arrays.stream(System.getProperty("ns", "16,128").split(",")).mapToInt(Integer::parseInt).toArray();

        for (int pass = 0; pass < 2; pass++) {
            for (int n : ns) for (int k : ks) for (boolean random : new boolean[] {false}) {
                StringBuilder line = new StringBuilder(String.format("n%-4d k%-4d %s ", n, k, random ? "rand" : "ones"));
                for (int rows : new int[] {24, 48, 96, 192, 384, 768, 1536}) {
                    double s = time(random ? randomA(rows, k) : KernelRateProbe.rowsMatrix(rows, k, k, 1), n, one);
                    double fmas = (double) rows * k * Math.ceil((double) n / lanes);
                    line.append(String.format("%d:%.3f ", rows, s / fmas * 1e9));
                    if (rows == 48) line.append(String.format("[diff %.3f] ", (s - time(random ? randomA(24, k) : KernelRateProbe.rowsMatrix(24, k, k, 1), n, one)) / (fmas / 2) * 1e9));
                }
                if (pass == 1) System.out.println(line);
            }
        }
        if (!probeFirst && probe) probe();
        one.close();
    }

    static void probe() {
        KernelRates r = new KernelRateProbe(ProbeSettings.DEFAULT.trials(), ProbeSettings.DEFAULT.minTrialSeconds()).run(32 << 10, 1 << 20, 116e9, 2);
        System.out.printf("probe: dense wide %.3f ns per vector FMA, narrow %.3f%n", r.denseFmaSeconds() * 1e9, r.denseNarrowFmaSeconds() * 1e9);
    }

    static MatrixView randomA(int rows, int k) {
        Random r = new Random(rows * 31L + k);
        float[] a = new float[rows * k];
        for (int i = 0; i < a.length; i++) a[i] = (float) r.nextGaussian() * 0.05f;
        return MatrixView.of(rows, k, a);
    }

    static double time(MatrixView a, int n, WorkerPool pool) {
        CpuRunner.Prepared<?> p = CpuRunner.prepare(Kernels.byName("dense"), a, new CpuRunner.Request("x", n, 1, new NnzBalancedPartition(), new TimingConfig(0, 0, 1)));
        long[] tn = new long[1];
        long end = System.nanoTime() + 150_000_000L;
        for (int i = 0; i < 300 || System.nanoTime() < end; i++) p.plan().run(p.b(), p.c(), pool, tn);
        long[] calls = new long[400];
        for (int i = 0; i < calls.length; i++) {
            long s = System.nanoTime();
            p.plan().run(p.b(), p.c(), pool, tn);
            calls[i] = System.nanoTime() - s;
        }
        Arrays.sort(calls);
        return calls[calls.length / 4] * 1e-9;
    }
}
