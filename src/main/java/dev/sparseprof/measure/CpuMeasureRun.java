package dev.sparseprof.measure;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.Partition;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Measures every requested format on every layer on the CPU, the dense kernel always first on
 * each layer so that every result carries its speedup over dense on the same layer. A partition
 * that cuts rows falls back to nnz-balanced for kernels that cannot carry a row out (the result
 * names the partition really used).
 */
public final class CpuMeasureRun {
    /** One matrix to measure, under the name the results carry. */
    public record Layer(String name, MatrixView matrix) {}

    /** What every measurement of the run shares. */
    public record Settings(int batch, int threads, Partition partition, TimingConfig timing) {}

    private CpuMeasureRun() {}

    /** Checks the format names before any work; returns the kernels, dense first. */
    public static List<SpmmKernel<?>> kernels(List<String> formats) {
        List<SpmmKernel<?>> out = new ArrayList<>();
        out.add(Kernels.byName("dense"));
        for (String f : formats) {
            SpmmKernel<?> k = Kernels.byName(f);
            if (!f.equals("dense") && out.stream().noneMatch(x -> x.name().equals(f))) out.add(k);
        }
        return out;
    }

    /** Side of the matrix that compiles a kernel's loops before the first layer is timed. */
    static final int JIT_WARMUP_SIZE = 256;

    /**
     * Runs the kernel on a small random 2:4 matrix until the JIT has compiled its loops
     * (a layer's own warm-up would otherwise run its first repetitions in the interpreter).
     */
    private static void warmUpJit(SpmmKernel<?> kernel, Settings settings, WorkerPool pool) {
        int size = JIT_WARMUP_SIZE;
        float[] a = new float[size * size];
        Random rnd = new Random(1);
        for (int i = 0; i < a.length; i += 4) { // two of every four: 2:4, so that every format can hold it
            int skip = rnd.nextInt(4);
            for (int p = 0, kept = 0; p < 4 && kept < 2; p++) {
                if (p != skip && (p != (skip + 1) % 4)) {
                    a[i + p] = rnd.nextFloat() + 0.5f;
                    kept++;
                }
            }
        }
        Partition p = settings.partition().splitsRows() && !kernel.splitsRows() ? new NnzBalancedPartition() : settings.partition();
        CpuRunner.measure(kernel, MatrixView.of(size, size, a),
                new CpuRunner.Request("jit-warmup", settings.batch(), settings.threads(), p, new TimingConfig(200, 0.5, 1)), pool);
    }

    public static List<Measurement> measure(List<Layer> layers, List<String> formats, Settings settings, Progress progress) {
        List<SpmmKernel<?>> kernels = kernels(formats);
        List<Measurement> out = new ArrayList<>();
        long total = (long) layers.size() * kernels.size();
        long done = 0;
        progress.update(0, total);
        try (WorkerPool pool = new WorkerPool(settings.threads())) {
            for (SpmmKernel<?> kernel : kernels) warmUpJit(kernel, settings, pool);
            for (Layer layer : layers) {
                double denseSeconds = Double.NaN;
                for (SpmmKernel<?> kernel : kernels) {
                    Partition p = settings.partition().splitsRows() && !kernel.splitsRows() ? new NnzBalancedPartition() : settings.partition();
                    Measurement m = CpuRunner.measure(kernel, layer.matrix(),
                            new CpuRunner.Request(layer.name(), settings.batch(), settings.threads(), p, settings.timing()), pool);
                    if (kernel.name().equals("dense")) denseSeconds = m.medianSeconds();
                    out.add(m.withDenseSeconds(denseSeconds));
                    progress.update(++done, total);
                }
            }
        }
        return out;
    }
}
