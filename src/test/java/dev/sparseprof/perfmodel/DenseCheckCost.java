package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Locale;

/**
 * Not a test: the cost of one dense GPU check in a warm JVM (java -cp ... DenseCheckCost [SPEC]):
 * LLaMA-2-7B shapes at N = 16, 512, 2048, the default 300 k budget, median of 7 calls after one warm-up.
 */
public final class DenseCheckCost {
    public static void main(String[] args) {
        GpuSpec g = (GpuSpec) HardwareSpecs.load(args.length > 0 ? args[0] : "h100-sxm");
        int[][] shapes = {{4096, 4096}, {11008, 4096}, {4096, 11008}};
        for (int[] s : shapes) {
            float[] a = new float[s[0] * s[1]];
            Arrays.fill(a, 1f);
            MatrixView view = MatrixView.of(s[0], s[1], a);
            Workload base = new Workload("w", MatrixScan.of(view), 1, DType.F16, view);
            for (long n : new long[] {16, 512, 2048}) {
                Workload w = base.withColumns(n);
                GpuReplayCheck.of(w, "dense", g, 300_000);
                double[] ms = new double[7];
                for (int i = 0; i < ms.length; i++) {
                    long t0 = System.nanoTime();
                    GpuReplayCheck.of(w, "dense", g, 300_000);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                }
                Arrays.sort(ms);
                System.out.println(String.format(Locale.ROOT, "%s %dx%d N=%d median %.1f ms (min %.1f, max %.1f)", g.name(), s[0], s[1], n, ms[3], ms[0], ms[6]));
            }
        }
    }
}
