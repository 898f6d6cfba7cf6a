package dev.sparseprof.bench;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.SpmmPlan;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.util.MatrixView;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SpMM kernels at the shapes of a BERT layer (3072x768 and 768x3072: FFN up and down) and at
 * 4096x4096, N = 16 and 128, sparsity 0.5 to 0.95 (random, uniform). Run with
 * {@code java -cp target/classes:target/test-classes:<deps> org.openjdk.jmh.Main KernelSpmmBench}
 * (the pom's test classpath holds JMH), e.g. {@code -p shape=3072x768 -p n=128 -p format=csr}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class KernelSpmmBench {
    @Param({"3072x768", "768x3072", "4096x4096"})
    public String shape;

    @Param({"16", "128"})
    public int n;

    @Param({"0.5", "0.7", "0.9", "0.95"})
    public double sparsity;

    @Param({"dense", "csr", "csr-fp16", "ell", "sell-16-256", "bitmask", "bsr4x4"})
    public String format;

    @Param({"1"})
    public int threads;

    private SpmmPlan<?> plan;
    private WorkerPool pool;
    private float[] b;
    private float[] c;
    private long[] threadNanos;

    @Setup(Level.Trial)
    public void setUp() {
        String[] mk = shape.split("x");
        int m = Integer.parseInt(mk[0]);
        int k = Integer.parseInt(mk[1]);
        Random rnd = new Random(1);
        float[] a = new float[m * k];
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() >= sparsity) a[i] = rnd.nextFloat() - 0.5f;
        b = new float[k * n];
        for (int i = 0; i < b.length; i++) b[i] = rnd.nextFloat() - 0.5f;
        c = new float[m * n];
        plan = plan(Kernels.byName(format), MatrixView.of(m, k, a));
        pool = new WorkerPool(threads);
        threadNanos = new long[threads];
    }

    private <A> SpmmPlan<A> plan(SpmmKernel<A> kernel, MatrixView view) {
        return SpmmPlan.of(kernel, kernel.prepare(view), n, Partitions.byName("nnz"), threads);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
    }

    @Benchmark
    public float[] spmm() {
        plan.run(b, c, pool, threadNanos);
        return c;
    }
}
