package dev.sparseprof.measure;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.Partition;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.probe.SpeedCanary;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Median;
import dev.sparseprof.util.Progress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

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
     * later, so that on a shared machine every format sees the same mix of the other tenants' load;
     * the {@link SpeedCanary} is read once per round. When any kernel's repetitions are noisy
     * ({@link NoiseCriteria}, page faults during its runs included), the layer's repetitions are
     * taken again (all kernels, still interleaved), up to {@code noise.retries} more times; each
     * kernel keeps its least noisy attempt (an FMA-bound kernel's the faster-read one among equals),
     * and its {@link Stability} says how many were taken and whether the kept one is still noisy.
     * The canary alone calls for no re-run: on the Zen 5 VM its low spells lasted tens of seconds,
     * and re-runs and waits for it took calibrate --quick from 134 to 189 s without a better fit.
     * At the end an FMA-bound kernel's case timed below {@code noise.minSpeed()} of the run's best
     * reading (which a later layer may have raised) is noisy ({@link #judgeSpeeds}).
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
            SpeedCanary canary = new SpeedCanary(pool);
            double best = firstBest(canary);
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
                double[] keptCanary = new double[count];
                int attempts = 0;
                boolean anyNoisy = true;
                while (anyNoisy && attempts <= noise.retries()) {
                    Attempt attempt = interleaved(prepared, reps, pool, faults, canary);
                    attempts++;
                    best = Math.max(best, attempt.bestThreadGflops());
                    double speed = attempt.canaryGflops() / best;
                    anyNoisy = false;
                    for (int i = 0; i < count; i++) {
                        Timing t = attempt.samples().get(i).timing();
                        double drift = attempt.samples().get(i).drift();
                        double faultsPerRun = attempt.samples().get(i).faultsPerRun();
                        boolean judged = kernels.get(i).fmaBound();
                        if (kept[i] == null || noise.excess(t, drift, faultsPerRun, judged ? speed : Double.NaN)
                                < noise.excess(kept[i], keptDrift[i], keptFaults[i], judged ? keptCanary[i] / best : Double.NaN)) {
                            kept[i] = t;
                            keptDrift[i] = drift;
                            keptFaults[i] = faultsPerRun;
                            keptCanary[i] = attempt.canaryGflops();
                        }
                        // the canary alone does not call for a re-run: its spells outlast the retries (below)
                        anyNoisy |= noise.judge(kept[i], keptDrift[i], keptFaults[i], Double.NaN).noisy();
                    }
                }
                double denseSeconds = Double.NaN;
                for (int i = 0; i < count; i++) {
                    // the speed is judged at the end (judgeSpeeds), against the run's final best
                    NoiseCriteria.Verdict why = noise.judge(kept[i], keptDrift[i], keptFaults[i], Double.NaN);
                    Stability st = new Stability(warm[i].settled(), warm[i].runs(), attempts, why.noisy(), why.reason(), why.criterion(),
                            keptCanary[i], keptCanary[i] / best);
                    Measurement m = prepared.get(i).result(kept[i]).withStability(st);
                    if (m.format().equals("dense")) denseSeconds = m.medianSeconds();
                    out.add(m.withDenseSeconds(denseSeconds));
                    progress.update(++done, total);
                }
            }
            Set<String> judged = new HashSet<>();
            for (SpmmKernel<?> kernel : kernels) if (kernel.fmaBound()) judged.add(kernel.name());
            return judgeSpeeds(out, judged, best, noise);
        }
    }

    /** Readings of the canary that set the run's first best (the median of their fastest threads). */
    static final int FIRST_READINGS = 15;

    private static double firstBest(SpeedCanary canary) {
        double[] r = new double[FIRST_READINGS];
        for (int i = 0; i < r.length; i++) r[i] = canary.reading().fastest();
        return Median.of(r, r.length);
    }

    /**
     * Every case's speed over the run's final best: a case of a {@code judged} format (its kernel
     * {@link SpmmKernel#fmaBound}) timed while the canary read below {@code noise.minSpeed()} of it is
     * noisy (by its first reason where it was noisy already); every case keeps its speed.
     */
    static List<Measurement> judgeSpeeds(List<Measurement> measured, Set<String> judged, double best, NoiseCriteria noise) {
        List<Measurement> out = new ArrayList<>(measured.size());
        for (Measurement m : measured) {
            Stability s = m.stability();
            double speed = s.canaryGflops() / best;
            NoiseCriteria.Verdict slow = judged.contains(m.format()) ? noise.slowness(speed) : NoiseCriteria.Verdict.QUIET;
            NoiseCriteria.Verdict kept = s.noisy() || !slow.noisy() ? new NoiseCriteria.Verdict(s.criterion(), s.reason()) : slow;
            out.add(m.withStability(new Stability(s.warmupSettled(), s.warmupRuns(), s.attempts(), kept.noisy(), kept.reason(), kept.criterion(),
                    s.canaryGflops(), speed)));
        }
        return out;
    }

    /**
     * One attempt's samples, a kernel each, and the canary's median readings over its rounds: of the
     * slowest thread (the attempt's speed) and of the fastest (what the run's best is taken from).
     */
    private record Attempt(List<TimingHarness.Samples> samples, double canaryGflops, double bestThreadGflops) {}

    /**
     * One attempt: {@code reps} rounds over the kernels, each round starting one kernel later and
     * ending with a reading of the canary; the page faults are read around all the rounds and then
     * around a few untimed runs of each kernel, never between timed runs
     * ({@link TimingHarness.Samples}: each read is a system call, which empties the TLB on some guests).
     */
    private static Attempt interleaved(List<CpuRunner.Prepared<?>> prepared, int reps, WorkerPool pool, PageFaults faults, SpeedCanary canary) {
        List<TimingHarness.Samples> samples = new ArrayList<>(prepared.size());
        for (int i = 0; i < prepared.size(); i++) samples.add(new TimingHarness.Samples(reps, faults));
        double[] slowest = new double[reps];
        double[] fastest = new double[reps];
        long faultsBefore = faults.count();
        for (int r = 0; r < reps; r++) {
            for (int j = 0; j < prepared.size(); j++) {
                int i = (r + j) % prepared.size();
                CpuRunner.Prepared<?> ready = prepared.get(i);
                samples.get(i).runOnce(ready.plan(), ready.b(), ready.c(), pool);
            }
            SpeedCanary.Reading reading = canary.reading();
            slowest[r] = reading.slowest();
            fastest[r] = reading.fastest();
        }
        long faultsAfter = faults.count();
        for (int i = 0; i < prepared.size(); i++) {
            CpuRunner.Prepared<?> ready = prepared.get(i);
            samples.get(i).shareFaults(faultsBefore, faultsAfter, (long) reps * prepared.size());
            samples.get(i).checkFaults(ready.plan(), ready.b(), ready.c(), pool);
        }
        return new Attempt(samples, Median.of(slowest, reps), Median.of(fastest, reps));
    }
}
