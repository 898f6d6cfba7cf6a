package dev.sparseprof.kernel;

import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Median;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * How the dense kernel's call splits over threads, in one JVM on pinned pools
 * ({@link WorkerPool#pinned}). Two parts:
 * <ul>
 * <li>{@code split K N reps M:T,M:T,...}: dense calls of M rows x K on T threads, the cases taken in
 *     turn call by call ({@code measure}'s way), {@code reps} timed rounds after as many untimed;
 *     per case the median wall time and the median slowest and fastest thread's time. {@code 192:1}
 *     beside {@code 384:2} is one thread's share of the 2-thread call run alone;
 * <li>{@code pack K N...}: one thread's pack of the whole of B ({@link DenseGemm#packAligned}, every
 *     K block of the C block), as every thread does it per call: its median time, the copies it
 *     makes (K per packed panel) and the bytes of B it reads.
 * </ul>
 */
public final class DenseSplitBench {
    private DenseSplitBench() {}

    public static void main(String[] args) {
        if (args[0].equals("pack")) pack(args);
        else split(args);
    }

    private static void split(String[] args) {
        int k = Integer.parseInt(args[1]), n = Integer.parseInt(args[2]), reps = Integer.parseInt(args[3]);
        String[] cases = args[4].split(",");
        DenseGemm dense = new DenseGemm();
        Random rnd = new Random(1);
        int count = cases.length;
        int[] rows = new int[count], threads = new int[count];
        @SuppressWarnings("unchecked") SpmmPlan<DenseMatrix>[] plans = new SpmmPlan[count];
        float[][] b = new float[count][], c = new float[count][];
        for (int i = 0; i < count; i++) {
            String[] mt = cases[i].split(":");
            rows[i] = Integer.parseInt(mt[0]);
            threads[i] = Integer.parseInt(mt[1]);
            float[] a = new float[rows[i] * k];
            for (int j = 0; j < a.length; j++) a[j] = rnd.nextFloat() - 0.5f;
            plans[i] = SpmmPlan.of(dense, dense.prepare(MatrixView.of(rows[i], k, a)), n, new NnzBalancedPartition(), threads[i]);
            b[i] = new float[k * n];
            for (int j = 0; j < b[i].length; j++) b[i][j] = rnd.nextFloat();
            c[i] = new float[rows[i] * n];
        }
        double[][] wall = new double[count][reps], slowest = new double[count][reps], fastest = new double[count][reps];
        // both pools before any call: a pinned pool pins its caller at its first call, and a thread
        // started after that inherits the caller's one CPU (a 2-thread pool made then ran both parts on it)
        WorkerPool[] pools = {null, WorkerPool.pinned(1), WorkerPool.pinned(2)};
        try {
            long[] nanos = new long[2];
            for (int r = -reps; r < reps; r++) {
                for (int i = 0; i < count; i++) {
                    long t0 = System.nanoTime();
                    plans[i].run(b[i], c[i], pools[threads[i]], nanos);
                    long t1 = System.nanoTime();
                    if (r < 0) continue;
                    wall[i][r] = (t1 - t0) / 1e3;
                    slowest[i][r] = (threads[i] == 1 ? nanos[0] : Math.max(nanos[0], nanos[1])) / 1e3;
                    fastest[i][r] = (threads[i] == 1 ? nanos[0] : Math.min(nanos[0], nanos[1])) / 1e3;
                }
            }
        } finally {
            for (WorkerPool p : pools) if (p != null) p.close();
        }
        System.out.println("dense " + DenseGemm.tiling());
        for (int i = 0; i < count; i++) {
            System.out.printf(Locale.ROOT, "K=%d N=%d M=%d T=%d wall %.1f us  thread slowest %.1f fastest %.1f%n", k, n, rows[i], threads[i],
                    Median.of(wall[i]), Median.of(slowest[i]), Median.of(fastest[i]));
        }
    }

    private static void pack(String[] args) {
        int k = Integer.parseInt(args[1]);
        System.out.println("dense " + DenseGemm.tiling());
        for (int i = 2; i < args.length; i++) {
            int n = Integer.parseInt(args[i]);
            float[] b = new float[k * n];
            Arrays.fill(b, 1f);
            int nc = Math.min(n, DenseGemm.NC);
            MemorySegment packed = Arena.ofAuto().allocate((long) DenseGemm.KC * DenseGemm.panelCount(nc) * DenseGemm.NR * Float.BYTES, 64);
            double[] t = new double[4000];
            for (int r = -t.length; r < t.length; r++) {
                long t0 = System.nanoTime();
                for (int j0 = 0; j0 < n; j0 += DenseGemm.NC) {
                    for (int k0 = 0; k0 < k; k0 += DenseGemm.KC) {
                        DenseGemm.packAligned(b, n, new DenseGemm.Panel(k0, Math.min(DenseGemm.KC, k - k0), j0, Math.min(DenseGemm.NC, n - j0)), packed);
                    }
                }
                long t1 = System.nanoTime();
                if (r >= 0) t[r] = t1 - t0;
            }
            long copies = 0;
            for (int j0 = 0; j0 < n; j0 += DenseGemm.NC) copies += (long) k * DenseGemm.panelCount(Math.min(DenseGemm.NC, n - j0));
            double us = Median.of(t) / 1e3;
            System.out.printf(Locale.ROOT, "K=%d N=%d pack median %.2f us: %d copies, %.2f ns per copy, %d bytes of B%n", k, n, us, copies,
                    us * 1e3 / copies, (long) k * n * Float.BYTES);
        }
    }

}
