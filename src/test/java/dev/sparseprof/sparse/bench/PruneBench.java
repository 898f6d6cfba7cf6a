package dev.sparseprof.sparse.bench;

import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Magnitude pruning of a 16M-weight layer (radix select in place) beside its naive peer, a sort of a
 * copy of the magnitudes to find the threshold; both start from the same fresh weights each call.
 *
 * <p>Run: as {@link ScanBench}, with {@code PruneBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PruneBench {
    private static final int N = 1 << 24;
    private float[] original;
    private float[] work;

    @Setup
    public void setUp() {
        original = new float[N];
        Random rnd = new Random(3);
        for (int i = 0; i < N; i++) original[i] = (float) rnd.nextGaussian();
        work = new float[N];
    }

    @Setup(Level.Invocation)
    public void reset() {
        System.arraycopy(original, 0, work, 0, N);
    }

    @Benchmark
    public float radixSelect() {
        Pruner.apply(new PruneSpec.Magnitude(0.9, PruneScope.LAYER), List.of(new LayerWeights("w", 4096, N / 4096, work)));
        return work[7];
    }

    @Benchmark
    public float sortPeer() {
        float[] magnitudes = new float[N];
        for (int i = 0; i < N; i++) magnitudes[i] = Math.abs(work[i]);
        Arrays.sort(magnitudes);
        float threshold = magnitudes[N - (N - (int) (0.9 * N))];
        for (int i = 0; i < N; i++) if (Math.abs(work[i]) < threshold) work[i] = 0f;
        return work[7];
    }
}
