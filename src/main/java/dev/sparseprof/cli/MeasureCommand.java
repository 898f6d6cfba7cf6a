package dev.sparseprof.cli;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.kernel.Partitions;
import dev.sparseprof.measure.CpuMeasureRun;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.MeasurementsHeader;
import dev.sparseprof.measure.Pruning;
import dev.sparseprof.measure.TimingConfig;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import java.io.PrintWriter;
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
 * speedup), after warm-up, over several repetitions, and writes the table and the measurements
 * JSON that {@code calibrate} reads.
 */
@Command(name = "measure", mixinStandardHelpOptions = true,
        description = "Measured CPU runs of the SpMM kernels per layer and format: median time, spread, GFLOP/s, GB/s, imbalance, speedup over dense.")
final class MeasureCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Option(names = "--model", paramLabel = "MODEL", description = "Model file; default: the bundled " + Models.DEFAULT_NAME + ".")
    String model;

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

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the measurements JSON ('-': standard output, alone).")
    String json;

    /** The kernel names, for --help. */
    static final class KernelNames implements Iterable<String> {
        @Override public Iterator<String> iterator() { return Kernels.names().iterator(); }
    }

    @Override
    public Integer call() {
        Checks.positive(batch, "--batch");
        Checks.positive(threads, "--threads");
        TimingConfig timing = TimingConfig.defaults().withRepetitions(reps);
        CpuMeasureRun.kernels(formats); // unknown format names fail before the model is read
        CpuMeasureRun.Settings settings = new CpuMeasureRun.Settings(batch, threads, Partitions.byName(partition), timing);
        if (sparsity != null) Checks.fraction(sparsity, "--sparsity");
        if (sparsity != null && nm != null) throw new SparseprofException("--sparsity and --nm: choose one pruning");
        NmPattern pattern = nm == null ? null : NmPattern.parse(nm);
        PrintWriter out = spec.commandLine().getOut();
        try (Model m = Models.open(model)) {
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
            MeasurementsHeader header = MeasurementsHeader.now(m.source(),
                    "sparseprof measure " + String.join(" ", spec.commandLine().getParseResult().originalArgs()));
            MeasurementsFile file = new MeasurementsFile(header, results);
            if (!Outputs.jsonOnStdout(json)) out.print(table(results));
            Outputs.write(json, file.toJson(), out);
        }
        return Main.EXIT_OK;
    }

    static String table(List<Measurement> results) {
        TextTable t = new TextTable("layer", "format", "shape", "sparsity", "N", "thr", "median", "min..max",
                "GFLOP/s", "GB/s", "imbal", "vs dense").rightAlign(3, 4, 5, 6, 7, 8, 9, 10, 11);
        for (Measurement r : results) {
            t.row(r.layer(), r.format(), r.rows() + "x" + r.cols(), String.format(Locale.ROOT, "%.3f", r.sparsity()),
                    r.batch(), r.threads(), ms(r.medianSeconds()),
                    ms(r.timing().minSeconds()) + ".." + ms(r.timing().maxSeconds()),
                    String.format(Locale.ROOT, "%.1f", r.gflops()), String.format(Locale.ROOT, "%.1f", r.effectiveGBps()),
                    String.format(Locale.ROOT, "%.2f", r.timing().imbalance()), String.format(Locale.ROOT, "%.2fx", r.speedupOverDense()));
        }
        return t.render();
    }

    private static String ms(double seconds) {
        return String.format(Locale.ROOT, "%.3fms", seconds * 1e3);
    }

}
