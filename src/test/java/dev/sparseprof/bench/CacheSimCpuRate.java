package dev.sparseprof.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link CacheHierarchyBench}'s paths timed by this thread's CPU time rather than the wall clock,
 * so that on a machine shared with other work the figure moves less with the load (what the other
 * work still takes, host caches and memory bandwidth, it does not remove). Prints the median of
 * the repetitions in M accesses per CPU-second.
 *
 * <p>Usage: {@code CacheSimCpuRate SHAPE PATH [REPS]} with SHAPE {@code spmm|mixed} and PATH
 * {@code push|push1|push2|din|parse} (in-process push through three levels, or only the first one
 * or two of them; din text parsed and simulated; din parsing alone), REPS default 7 (the first two
 * are warm-up and left out).
 */
public final class CacheSimCpuRate {
    private CacheSimCpuRate() {}

    public static void main(String[] args) {
        CacheHierarchyBench bench = new CacheHierarchyBench();
        bench.shape = args[0];
        String path = args[1];
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        bench.setup();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[] rates = new double[reps - 2];
        long sink = 0;
        for (int r = 0; r < reps; r++) {
            long t0 = mx.getCurrentThreadCpuTime();
            sink += switch (path) {
                case "push" -> bench.pushThreeLevels();
                case "push1" -> bench.push(CacheHierarchyBench.hierarchy(1));
                case "push2" -> bench.push(CacheHierarchyBench.hierarchy(2));
                case "din" -> bench.dinTextThreeLevels();
                case "parse" -> bench.dinTextParseOnly();
                default -> throw new IllegalArgumentException("path push|push1|push2|din|parse, got " + path);
            };
            long t1 = mx.getCurrentThreadCpuTime();
            if (r >= 2) rates[r - 2] = CacheHierarchyBench.ACCESSES / ((t1 - t0) / 1e9) / 1e6;
        }
        Arrays.sort(rates);
        System.out.printf(Locale.ROOT, "%s %s: median %.1f M accesses per CPU-second (min %.1f, max %.1f; %d runs)%n", args[0], path,
                rates[rates.length / 2], rates[0], rates[rates.length - 1], rates.length);
        if (sink == 42) System.out.println();
    }
}
