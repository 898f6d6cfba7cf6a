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
 * Measures every requested format on every layer on the CPU, repetitions interleaved across the
 * formats; the dense kernel is always measured and listed first on each layer, so that every
 * result carries its speedup over dense on the same layer. A partition
 * that cuts rows falls back to nnz-balanced for kernels that cannot carry a row out (the result
 * names the partition really used). The kernels run on a pinned pool ({@code WorkerPool#pinned}):
 * thread t on the t-th CPU, so a single-threaded run takes the first CPU, the one the probe's
 * single-thread rates come from.
 */
public final class CpuMeasureRun {
    /** One matrix to measure, under the name the results carry. */
    public record Layer(String name, MatrixView matrix) {}

    /** What every measurement of the run shares; {@code noise}: when a layer's repetitions are taken again. */
    public record Settings(int batch, int threads, Partition partition, TimingConfig timing, NoiseCriteria noise) {
        public Settings(int batch, int threads, Partition partition, TimingConfig timing) {
            this(batch, threads, partition, timing, NoiseCriteria.DEFAULT);
        }
    }

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

    /**
     * Per layer: every kernel is prepared and warmed up ({@link TimingHarness#warmUp}), then the
     * timed repetitions go round the kernels one run at a time, each round starting one kernel
     * later, so that on a shared machine every format sees the same mix of the other tenants' load.
     * When any kernel's repetitions are noisy ({@link NoiseCriteria}, page faults during its runs
     * included), the layer's repetitions are
     * taken again (all kernels, still interleaved), up to {@code noise.retries} more times; each
     * kernel keeps its least noisy attempt, and its {@link Stability} says how many were taken and
     * whether the kept one is still noisy.
     */
    public static List<Measurement> measure(List<Layer> layers, List<String> formats, Settings settings, Progress progress) {
        List<SpmmKernel<?>> kernels = kernels(formats);
        List<Measurement> out = new ArrayList<>();
        long total = (long) layers.size() * kernels.size();
        long done = 0;
        progress.update(0, total);
        int reps = settings.timing().repetitions();
        NoiseCriteria noise = settings.noise();
        try (WorkerPool pool = WorkerPool.pinned(settings.threads()); PageFaults faults = PageFaults.open()) {
            for (SpmmKernel<?> kernel : kernels) warmUpJit(kernel, settings, pool);
            for (Layer layer : layers) {
                int count = kernels.size();
                List<CpuRunner.Prepared<?>> prepared = new ArrayList<>(count);
                TimingHarness.WarmUp[] warm = new TimingHarness.WarmUp[count];
                for (int i = 0; i < count; i++) {
                    SpmmKernel<?> kernel = kernels.get(i);
                    Partition p = settings.partition().splitsRows() && !kernel.splitsRows() ? new NnzBalancedPartition() : settings.partition();
                    CpuRunner.Prepared<?> ready = CpuRunner.prepare(kernel, layer.matrix(),
                            new CpuRunner.Request(layer.name(), settings.batch(), settings.threads(), p, settings.timing()));
                    warm[i] = TimingHarness.warmUp(ready.plan(), ready.b(), ready.c(), pool, settings.timing());
                    prepared.add(ready);
                }
                Timing[] kept = new Timing[count];
                double[] keptDrift = new double[count];
                double[] keptFaults = new double[count];
                int attempts = 0;
                boolean anyNoisy = true;
                while (anyNoisy && attempts <= noise.retries()) {
                    List<TimingHarness.Samples> samples = interleaved(prepared, reps, pool, faults);
                    attempts++;
                    anyNoisy = false;
                    for (int i = 0; i < count; i++) {
                        Timing t = samples.get(i).timing();
                        double drift = samples.get(i).drift();
                        double faultsPerRun = samples.get(i).faultsPerRun();
                        if (kept[i] == null || noise.excess(t, drift, faultsPerRun) < noise.excess(kept[i], keptDrift[i], keptFaults[i])) {
                            kept[i] = t;
                            keptDrift[i] = drift;
                            keptFaults[i] = faultsPerRun;
                        }
                        anyNoisy |= !noise.verdict(kept[i], keptDrift[i], keptFaults[i]).isEmpty();
                    }
                }
                double denseSeconds = Double.NaN;
                for (int i = 0; i < count; i++) {
                    String why = noise.verdict(kept[i], keptDrift[i], keptFaults[i]);
                    Stability st = new Stability(warm[i].settled(), warm[i].runs(), attempts, !why.isEmpty(), why);
                    Measurement m = prepared.get(i).result(kept[i]).withStability(st);
                    if (m.format().equals("dense")) denseSeconds = m.medianSeconds();
                    out.add(m.withDenseSeconds(denseSeconds));
                    progress.update(++done, total);
                }
            }
        }
        return out;
    }

    /**
     * One attempt: {@code reps} rounds over the kernels, each round starting one kernel later; each
     * kernel's samples count the page faults during its runs.
     */
    private static List<TimingHarness.Samples> interleaved(List<CpuRunner.Prepared<?>> prepared, int reps, WorkerPool pool, PageFaults faults) {
        List<TimingHarness.Samples> samples = new ArrayList<>(prepared.size());
        for (int i = 0; i < prepared.size(); i++) samples.add(new TimingHarness.Samples(reps, faults));
        for (int r = 0; r < reps; r++) {
            for (int j = 0; j < prepared.size(); j++) {
                int i = (r + j) % prepared.size();
                CpuRunner.Prepared<?> ready = prepared.get(i);
                samples.get(i).runOnce(ready.plan(), ready.b(), ready.c(), pool);
            }
        }
        return samples;
    }
}
