package dev.sparseprof.sparse.bench;

import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.MatrixView;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The statistics scan against the memory-read floor of the same matrix, in one run: {@code copyRows}
 * streams every row through {@link MatrixView#copyRow} (what any scan must do) and sums one float per
 * row; {@code scanCounts} adds only the nnz bitmap; {@code scanDefault} is the full default scan
 * (row lengths, column counts, 2:4 / 1:2 / 4:8, 4x4 / 8x8 / 16x16 blocks). The matrix is 256 MiB of
 * fp32, far beyond the caches. Bytes per second = 256 MiB / the time per op.
 *
 * <p>Run: {@code mvn -o -q package -DskipTests && java --add-modules jdk.incubator.vector -cp
 * target/test-classes:target/classes:'target/bench-lib/*' org.openjdk.jmh.Main ScanBench}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ScanBench {
    @Param({"0.1"})
    public double density;

    private static final int ROWS = 16384;
    private static final int COLS = 4096;
    private MatrixView view;
    private static final ScanOptions COUNTS_ONLY = new ScanOptions(List.of(), List.of(), false, 1);

    @Setup
    public void setUp() {
        float[] a = new float[ROWS * COLS];
        Random rnd = new Random(1);
        for (int i = 0; i < a.length; i++) if (rnd.nextDouble() < density) a[i] = rnd.nextFloat() + 0.5f;
        view = MatrixView.of(ROWS, COLS, a);
    }

    @Benchmark
    public float copyRows() {
        float[] row = new float[COLS];
        float sum = 0;
        for (int r = 0; r < ROWS; r++) {
            view.copyRow(r, row, 0);
            sum += row[r & (COLS - 1)];
        }
        return sum;
    }

    @Benchmark
    public MatrixStats scanCounts() {
        return MatrixScan.of(view, COUNTS_ONLY);
    }

    @Benchmark
    public MatrixStats scanDefault() {
        return MatrixScan.of(view, ScanOptions.DEFAULT);
    }
}
