package dev.sparseprof.cli;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.hw.Runtimes;
import dev.sparseprof.model.Model;
import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.PublishedCases;
import dev.sparseprof.perfmodel.SimulatedTraffic;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.report.HtmlReport;
import dev.sparseprof.sparse.Formats;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.report.PublishedReport;
import dev.sparseprof.report.SimulationReport;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sparseprof simulate}: predicted time, speedup, bottleneck and efficiency gap per layer on one machine. */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = "Predict each layer's time and speedup over dense on a machine (roofline, load balance, 2:4).")
final class SimulateCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec command;

    @Option(names = "--hw", paramLabel = "SPEC",
            description = "Hardware spec: a YAML file or a preset name; 'list' prints the presets.")
    String hw;

    @Mixin PredictionInputs inputs;

    @Option(names = "--batch", defaultValue = "128", paramLabel = "N", description = "Tokens (columns of B) per linear layer; default ${DEFAULT-VALUE}.")
    long batch;

    @Option(names = "--format", defaultValue = "auto", paramLabel = "F",
            description = "Format to predict (dense, csr, csr-rowsplit, coo, bsr4x4, bsr16x16, bsr32x32, bsr64x64, 2:4, 1:2, sell-16-256 or sell-8-256 on a probed CPU spec of that width; 'list' prints them; 2:4 means 1:2 for tf32 on a GPU) or auto: the fastest per layer; default ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--sparsity", paramLabel = "S",
            description = "Magnitude-prune every layer to S (0..1) in memory first. With --format 2:4 and no S, layers are 2:4-pruned.")
    Double sparsity;

    @Option(names = "--nm", paramLabel = "N:M",
            description = "N:M-prune every layer along K in memory first (2:4, or 1:2, the sparse tensor cores' patterns), then predict every format on it.")
    String nm;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the report as JSON ('-' for standard output alone).")
    String json;

    @Option(names = "--html", paramLabel = "FILE", description = "Write a self-contained HTML report with charts.")
    String html;

    @Option(names = "--wide", description = "Add miss rates, DRAM bytes, imbalance and each layer's best sparse format to the table.")
    boolean wide;

    @Option(names = "--runtime", paramLabel = "NAME",
            description = "GPU software stack of the dense and 2:4 GEMMs (a runtime: preset; default: the spec's runtime: section, else cusparselt).")
    String runtime;

    @Option(names = "--traffic", defaultValue = "checked", paramLabel = "checked|analytical|simulated",
            description = "Memory traffic: checked (analytical, each traced kernel's memsim replay of a sample reported beside it), analytical (no replays), or simulated (the replay is the traffic where a traced kernel exists); default ${DEFAULT-VALUE}.")
    String traffic;

    @Option(names = "--published", paramLabel = "FILE",
            description = "Instead of a model: predict the published cases in FILE (validation/published/a100.yaml) and print the error.")
    String published;

    @Override
    public Integer call() {
        Outputs.checkFolder("--json", json);
        Outputs.checkFolder("--html", html);
        PrintWriter out = command.commandLine().getOut();
        if (published != null) {
            List<PublishedCases.Row> rows = PublishedCases.evaluate(Path.of(published));
            if (!Outputs.jsonOnStdout(json)) out.print(PublishedReport.table(rows));
            Outputs.write(json, () -> PublishedReport.json(rows), out);
            return Main.EXIT_OK;
        }
        if (format.equals("list")) {
            out.println(String.join("\n", FormatModels.names()));
            return Main.EXIT_OK;
        }
        if (hw == null) throw new SparseprofException("simulate: --hw SPEC is required (a YAML file or a preset; --hw list shows them)");
        if (hw.equals("list")) {
            out.println(String.join("\n", HardwareSpecs.presetNames()));
            return Main.EXIT_OK;
        }
        Checks.positive(batch, "--batch");
        HardwareSpec spec = Runtimes.apply(HardwareSpecs.load(hw), runtime);
        if (sparsity != null && nm != null) throw new SparseprofException("--sparsity and --nm: choose one pruning");
        NmPattern nmPattern = null;
        if (nm != null) {
            nmPattern = option("--nm", () -> NmPattern.parse(nm));
            if (!nmPattern.equals(NmPattern.TWO_FOUR) && !nmPattern.equals(NmPattern.ONE_TWO)) {
                throw new SparseprofException("--nm " + nm + ": simulate prunes to 2:4 or 1:2 (the sparse tensor cores' patterns); "
                        + "'sparseprof measure --nm " + nm + "' times the CPU kernels on any N:M");
            }
        }
        Simulation.Result result;
        PredictionInputs.DTypeChoice choice;
        try (Model m = inputs.openModel()) {
            choice = inputs.dtypeFor(m, Simulation.defaultDType(spec), spec.name());
            DType d = choice.dtype();
            String f = format;
            if (spec.isGpu() && (f.equals("2:4") || f.equals("1:2")) && !Formats.ampereFor(d).name().equals(f)) {
                // Ampere's sparse tensor cores run 1:2 for tf32 and 2:4 for 16/8-bit types (docs/sources.md section 2).
                f = Formats.ampereFor(d).name();
                command.commandLine().getErr().println("simulate: the sparse tensor cores run " + f + " for " + d.label()
                        + ", not " + format + ": modelling " + f);
            }
            String chosen = f;
            List<FormatModel> formats = formats(chosen);
            Workloads.Pruning pruning = Workloads.Pruning.NONE;
            double s = 0;
            if (nmPattern != null) {
                pruning = Workloads.Pruning.structured(nmPattern);
                s = 0.5;
            } else if (sparsity != null) {
                s = Checks.fraction(sparsity, "--sparsity");
                pruning = Workloads.Pruning.MAGNITUDE;
            } else if (f.equals("2:4") || f.equals("1:2")) {
                pruning = Workloads.Pruning.structured(NmPattern.parse(f));
                s = 0.5;
            }
            Simulation.Options options = new Simulation.Options(batch, d, pruning, s, formats);
            List<Workload> workloads = Simulation.workloads(m.layers(), options, TerminalProgressBar.forTerminal("simulate: scanning layers"));
            if (workloads.isEmpty()) throw new SparseprofException(inputs.model.label() + ": no GEMM layers");
            List<String> notes = Simulation.notes(m.layers(), options);
            result = Simulation.run(new PerfModel(spec, trafficModel(traffic)), workloads, options, notes,
                    TerminalProgressBar.forTerminal("simulate: estimating layers"));
            for (int i = 0; i < result.notes().size(); i++) {
                String note = result.notes().get(i);
                if (note != null) command.commandLine().getErr().println("simulate: layer '" + workloads.get(i).name() + "': " + note);
            }
        }
        choice.announce("simulate", command.commandLine().getErr());
        if (!Outputs.jsonOnStdout(json)) out.print(SimulationReport.table(result, wide));
        Outputs.write(json, () -> SimulationReport.json(result), out);
        if (html != null) HtmlReport.writeSimulation(Path.of(html), result);
        return Main.EXIT_OK;
    }

    /** The memory model by name; a replay pushes at most 300k accesses (big layers are sampled). */
    static TrafficModel trafficModel(String name) {
        return switch (name) {
            case "checked" -> SimulatedTraffic.checked(300_000);
            case "simulated" -> new SimulatedTraffic(300_000);
            case "analytical" -> TrafficModel.ANALYTICAL;
            default -> throw new SparseprofException("--traffic: unknown '" + name + "' (known: checked, analytical, simulated)");
        };
    }

    /** Runs {@code parse}; a fault in it is reported with the option's name first ({@code --format: unknown format 'x' (known: ...)}). */
    static <T> T option(String name, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (SparseprofException e) {
            throw new SparseprofException(name + ": " + e.getMessage(), e);
        }
    }

    /** {@code auto} means every registered format; else one name. */
    static List<FormatModel> formats(String name) {
        if (!name.equals("auto")) {
            FormatNames.requirePredictable(name, "--format");
            return List.of(FormatModels.byName(name));
        }
        List<FormatModel> all = new ArrayList<>();
        for (String n : FormatModels.names()) all.add(FormatModels.byName(n));
        return all;
    }
}
