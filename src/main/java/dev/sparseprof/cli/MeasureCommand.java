package dev.sparseprof.cli;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.measure.CpuMeasureRun;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.MeasurementsHeader;
import dev.sparseprof.measure.NoiseCriteria;
import dev.sparseprof.measure.Pruning;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.measure.gpu.GpuLayerRun;
import dev.sparseprof.measure.gpu.GpuMeasurement;
import dev.sparseprof.measure.gpu.GpuMeasurementsJson;
import dev.sparseprof.measure.gpu.GpuRunSettings;
import dev.sparseprof.measure.gpu.GpuSpmmRunner;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.CoreAffinity;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import dev.sparseprof.util.Units;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof measure}: times the CPU kernels per layer and format (dense always, for the
 * speedup), after warm-up, over several repetitions interleaved across the formats, and writes the
 * table and the measurements JSON that {@code calibrate} reads; {@code --device gpu} times the
 * CUDA kernels instead and writes the same JSON with {@code device: gpu}.
 */
@Command(name = "measure", mixinStandardHelpOptions = true,
        description = "Measured CPU runs of the SpMM kernels per layer and format: median time, spread, GFLOP/s, GB/s, imbalance, speedup over dense.")
final class MeasureCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Mixin ModelArgument model;
    @Mixin TableOptions tableOptions;

    @Option(names = "--formats", required = true, split = ",", paramLabel = "F,F...",
            description = "Kernels to measure besides dense: ${COMPLETION-CANDIDATES}.", completionCandidates = KernelNames.class)
    List<String> formats;

    @Option(names = "--batch", required = true, paramLabel = "N", description = "Columns N of the dense operand (tokens).")
    int batch;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "T", description = "Threads per kernel. Default ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "--partition", defaultValue = "nnz", paramLabel = "P",
            description = "How rows are split among threads: static, nnz, merge. Default ${DEFAULT-VALUE}.")
    String partition;

    @Option(names = "--sparsity", paramLabel = "S",
            description = "Prune each layer in memory first (magnitude, per layer) to sparsity S in [0, 1].")
    Double sparsity;

    @Option(names = "--nm", paramLabel = "N:M", description = "Prune each layer in memory first to N:M along its rows (e.g. 2:4).")
    String nm;

    @Option(names = "--layers", paramLabel = "PATTERN", description = "Layer names or * globs, comma-separated; default: all GEMM layers.")
    String layers;

    @Option(names = "--reps", defaultValue = "15", paramLabel = "R", description = "Timed repetitions per kernel. Default ${DEFAULT-VALUE}.")
    int reps;

    @Option(names = "--max-spread", defaultValue = "0.10", paramLabel = "F",
            description = "A case whose repetitions' IQR over their median passes F is noisy and re-run. Default ${DEFAULT-VALUE}.")
    double maxSpread;

    @Option(names = "--max-range", defaultValue = "2.0", paramLabel = "X",
            description = "A case whose slowest over fastest repetition passes X is noisy and re-run. Default ${DEFAULT-VALUE}.")
    double maxRange;

    @Option(names = "--retries", defaultValue = "2", paramLabel = "R",
            description = "How many times a layer with a noisy case is measured again (the least noisy attempt is kept). Default ${DEFAULT-VALUE}.")
    int retries;

    @Option(names = "--device", defaultValue = "cpu", paramLabel = "cpu|gpu",
            description = "cpu: the Vector API kernels; gpu: the project's CUDA kernels through JCuda (formats dense, dense-f16, csr, bsr4x4, 2:4). Default ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the measurements JSON ('-': standard output, alone).")
    String json;

    /** The kernel names, for --help. */
    static final class KernelNames implements Iterable<String> {
        @Override public Iterator<String> iterator() { return Kernels.names().iterator(); }
    }

    @Override
    public Integer call() {
        Outputs.checkFolder("--json", json);
        Checks.positive(batch, "--batch");
        Checks.positive(threads, "--threads");
        if (device.equals("gpu")) return gpu();
        if (!device.equals("cpu")) throw new SparseprofException("--device " + device + ": cpu or gpu");
        int processCpus = CoreAffinity.processCpus().length;
        int cpus = processCpus > 0 ? processCpus : Runtime.getRuntime().availableProcessors();
        if (threads > cpus) {
            // two threads of a pinned pool on one CPU take turns in the scheduler's time slices: on the 2-vCPU Zen 5 VM
            // (7 Dec 2026) --threads 3 timed a 30 us dense call at 3.99 ms
            throw new SparseprofException("--threads " + threads + ": more than the " + cpus + " CPU" + (cpus == 1 ? "" : "s")
                    + " this process may use; threads sharing a CPU take turns in the scheduler's time slices, so the runs would time the scheduler");
        }
        TimingConfig timing = TimingConfig.defaults().withRepetitions(reps);
        for (String f : formats) FormatNames.requireKernel(f, "--formats");
        CpuMeasureRun.kernels(formats); // unknown format names fail before the model is read
        NoiseCriteria noise = new NoiseCriteria(maxSpread, maxRange, NoiseCriteria.DEFAULT.maxDrift(),
                NoiseCriteria.DEFAULT.maxFaultsPerRun(), retries);
        CpuMeasureRun.Settings settings = new CpuMeasureRun.Settings(batch, threads, Partitions.byName(partition), timing, noise);
        if (sparsity != null) Checks.fraction(sparsity, "--sparsity");
        if (sparsity != null && nm != null) throw new SparseprofException("--sparsity and --nm: choose one pruning");
        NmPattern pattern = nm == null ? null : NmPattern.parse(nm);
        PrintWriter out = spec.commandLine().getOut();
        try (Model m = model.open()) {
            List<CpuMeasureRun.Layer> selected = new ArrayList<>();
            for (GemmLayer l : LayerSelection.select(m, layers, "--layers")) {
                MatrixView view = sparsity != null ? Pruning.magnitude(l.name(), l.matrix(), sparsity)
                        : pattern != null ? Pruning.nm(l.name(), l.matrix(), pattern) : l.matrix();
                selected.add(new CpuMeasureRun.Layer(l.name(), view));
            }
            Progress bar = TerminalProgressBar.forTerminal("measure");
            List<Measurement> results;
            try {
                results = CpuMeasureRun.measure(selected, formats, settings, bar);
            } finally {
                bar.finish();
            }
            MeasurementsHeader header = MeasurementsHeader.now(m.source(), commandLine());
            MeasurementsFile file = new MeasurementsFile(header, results);
            if (!Outputs.jsonOnStdout(json)) {
                out.print(table(results, tableOptions.wide));
                out.println(noiseSummary(results, noise));
            }
            Outputs.write(json, file::toJson, out);
        }
        return Main.EXIT_OK;
    }

    /** The command as typed (picocli's original arguments start with the subcommand's name). */
    private String commandLine() {
        return "sparseprof " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }

    /** {@code --device gpu}: the CUDA kernels on the model's layers; without a GPU one line, exit 2. */
    private int gpu() {
        if (threads != 1) throw new SparseprofException("--threads " + threads + ": a GPU run has no thread count (leave it at 1)");
        if (sparsity != null) Checks.fraction(sparsity, "--sparsity");
        if (sparsity != null && nm != null) throw new SparseprofException("--sparsity and --nm: choose one pruning");
        GpuLayerRun.kernels(formats); // unknown format names fail before the GPU is opened
        NmPattern pattern = nm == null ? null : NmPattern.parse(nm);
        PrintWriter out = spec.commandLine().getOut();
        GpuRunSettings settings = new GpuRunSettings(GpuRunSettings.DEFAULT.warmup(), reps, GpuRunSettings.DEFAULT.seed(),
                GpuRunSettings.DEFAULT.verifyLimitMacs());
        try (GpuSpmmRunner runner = GpuSpmmRunner.open(settings); Model m = model.open()) {
            List<GpuLayerRun.Layer> selected = new ArrayList<>();
            for (GemmLayer l : LayerSelection.select(m, layers, "--layers")) {
                MatrixView view = sparsity != null ? Pruning.magnitude(l.name(), l.matrix(), sparsity)
                        : pattern != null ? Pruning.nm(l.name(), l.matrix(), pattern) : l.matrix();
                selected.add(new GpuLayerRun.Layer(l.name(), view, sparsity != null ? sparsity : pattern != null ? 0.5 : 0));
            }
            PrintWriter err = spec.commandLine().getErr();
            GpuLayerRun.Results r = GpuLayerRun.run(runner, selected, formats, batch, name -> err.println("measure: gpu " + name));
            if (!Outputs.jsonOnStdout(json)) {
                TextTable t = new TextTable("case", "median", "min..max", "GFLOP/s", "rel. error").rightAlign(1, 2, 3, 4);
                for (GpuMeasurement g : r.measurements()) {
                    t.row(g.layer() + " " + g.kernel(), Units.formatSeconds(g.medianSeconds()), Units.formatSeconds(g.timing().minSeconds()) + ".." + Units.formatSeconds(g.timing().maxSeconds()),
                            String.format(Locale.ROOT, "%.1f", g.gflops()),
                            Double.isNaN(g.relativeError()) ? "unchecked" : String.format(Locale.ROOT, "%.1e", g.relativeError()));
                }
                out.print(t.render());
            }
            Outputs.write(json, () -> GpuMeasurementsJson.write(m.source(), runner.device(), Instant.now().toString(), commandLine(),
                    r.cases(), r.measurements()), out);
        }
        return Main.EXIT_OK;
    }

    /** One line: how many cases were re-run and how many are still noisy, naming the worst. */
    static String noiseSummary(List<Measurement> results, NoiseCriteria noise) {
        int rerun = 0;
        int noisy = 0;
        int unsettled = 0;
        String example = "";
        for (Measurement r : results) {
            if (r.stability().attempts() > 1) rerun++;
            if (!r.stability().warmupSettled()) unsettled++;
            if (r.stability().noisy()) {
                noisy++;
                if (example.isEmpty()) example = " (first: " + r.layer() + " " + r.format() + ", " + r.stability().reason() + ")";
            }
        }
        return String.format(Locale.ROOT, "measure: %d of %d cases noisy after up to %d re-runs%s; %d re-run; %d with an unsettled warm-up"
                + " (noisy: IQR/median > %.0f%%, max/min > %.3g, drift > %.3g, page faults > %.3g per run or the machine below %.2f of its best speed)",
                noisy, results.size(), noise.retries(), example, rerun, unsettled, 100 * noise.maxSpread(), noise.maxRange(), noise.maxDrift(),
                noise.maxFaultsPerRun(), noise.minSpeed());
    }

    static String table(List<Measurement> results) {
        return table(results, false);
    }

    /** The measurements table; it fits 120 columns unless {@code wide}. */
    static String table(List<Measurement> results, boolean wide) {
        TextTable t = new TextTable("layer", "format", "shape", "sparsity", "N", "thr", "median", "min..max",
                "GFLOP/s", "GB/s", "imbal", "vs dense", "noise").rightAlign(3, 4, 5, 6, 7, 8, 9, 10, 11).optional(2, 5, 7, 9, 10);
        for (Measurement r : results) {
            t.row(r.layer(), r.format(), r.rows() + "x" + r.cols(), String.format(Locale.ROOT, "%.1f%%", 100 * r.sparsity()),
                    r.batch(), r.threads(), Units.formatSeconds(r.medianSeconds()),
                    Units.formatSeconds(r.timing().minSeconds()) + ".." + Units.formatSeconds(r.timing().maxSeconds()),
                    String.format(Locale.ROOT, "%.1f", r.gflops()), String.format(Locale.ROOT, "%.1f", r.effectiveGBps()),
                    String.format(Locale.ROOT, "%.2f", r.timing().imbalance()), String.format(Locale.ROOT, "%.2fx", r.speedupOverDense()),
                    r.stability().label());
        }
        return t.render(wide);
    }

}
