package dev.sparseprof.bench;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.CpuRunner;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.measure.TimingHarness;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;

/** Single csr calls timed back to back on a warmed-up plan, for the experiments of this package. */
final class CsrCalls {
    private CsrCalls() {}

    /** The {@code quantile} of {@code calls} single calls' seconds at N = {@code n}, after at least 200 warm-up calls and 0.1 s. */
    static double seconds(MatrixView a, int n, WorkerPool pool, int calls, double quantile) {
        CpuRunner.Prepared<?> p = CpuRunner.prepare(Kernels.byName("csr"), a,
                new CpuRunner.Request("experiment", n, pool.threads(), new NnzBalancedPartition(), new TimingConfig(0, 0, 1)));
        TimingHarness.warmUp(p.plan(), p.b(), p.c(), pool, new TimingConfig(200, 0.1, 1));
        long[] threadNanos = new long[pool.threads()];
        long[] nanos = new long[calls];
        for (int i = 0; i < calls; i++) {
            long s = System.nanoTime();
            p.plan().run(p.b(), p.c(), pool, threadNanos);
            nanos[i] = System.nanoTime() - s;
        }
        Arrays.sort(nanos);
        return nanos[(int) (calls * quantile)] * 1e-9;
    }
}
