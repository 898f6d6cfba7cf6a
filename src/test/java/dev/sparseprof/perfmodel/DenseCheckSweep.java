package dev.sparseprof.perfmodel;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.Locale;

/**
 * Not a test: prints the dense GPU check's L2 and DRAM differences over access budgets
 * (java -cp ... DenseCheckSweep BUDGETS [alternate]; {@code alternate} puts even SMs on one L2
 * partition and odd ones on the other instead of the two halves of the SM numbers).
 */
public final class DenseCheckSweep {
    public static void main(String[] args) {
        String[] specs = {"a100-80gb", "h100-sxm"};
        int[][] shapes = {{1024, 1024}, {4096, 4096}, {5632, 2048}, {11008, 4096}};
        long[] ns = {1, 16, 128, 512, 2048};
        long[] budgets = {50_000, 100_000, 300_000, 1_000_000, 3_000_000};
        boolean alternate = args.length > 1 && args[1].equals("alternate");
        if (args.length > 0) budgets = Arrays.stream(args[0].split(",")).mapToLong(Long::parseLong).toArray();
        for (int[] s : shapes) {
            float[] a = new float[s[0] * s[1]];
            Arrays.fill(a, 1f);
            MatrixView view = MatrixView.of(s[0], s[1], a);
            Workload base = new Workload("w", MatrixScan.of(view), 1, DType.F16, view);
            for (String spec : specs) {
                GpuSpec g = (GpuSpec) HardwareSpecs.load(spec);
                for (long n : ns) {
                    Workload w = base.withColumns(n);
                    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-10s %5dx%-5d N=%-5d", spec, s[0], s[1], n));
                    for (long b : budgets) {
                        long t0 = System.nanoTime();
                        TrafficCheck c = GpuTileReplay.check(w, g, b, alternate);
                        double ms = (System.nanoTime() - t0) / 1e6;
                        sb.append(String.format(Locale.ROOT, " | %dk L2 %+6.1f%% DRAM %+6.1f%% (plan %.1f, replay %.1f MB) %5.0fms", b / 1000, 100 * c.relativeDifference(0),
                                100 * c.relativeDifference(1), c.analyticalBytes()[1] / 1e6, c.replayBytes()[1] / 1e6, ms));
                    }
                    sb.append(String.format(Locale.ROOT, " | A+B+C %.1f MB", (2.0 * s[0] * s[1] + 2.0 * s[1] * n + 2.0 * s[0] * n) / 1e6));
                    System.out.println(sb.append(" | ").append(GpuTileReplay.check(w, g, budgets[budgets.length - 1], alternate).sample()));
                }
            }
        }
    }
}
