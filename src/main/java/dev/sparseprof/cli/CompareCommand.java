package dev.sparseprof.cli;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.hw.Runtimes;
import dev.sparseprof.model.Model;
import dev.sparseprof.perfmodel.Comparison;
import dev.sparseprof.report.ComparisonReport;
import dev.sparseprof.report.HtmlReport;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof compare}: every format on every spec at every token count and what-if sparsity,
 * each format under its own pruning pattern, against the layer's one dense baseline, with the winner
 * per layer and a summary line per scenario.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, description = "What-if table: prune to each sparsity, predict every format on every spec, pick the winner per layer.")
final class CompareCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec command;

    @Option(names = "--hw", required = true, split = ",", paramLabel = "SPEC", description = "Specs (files or presets), comma-separated.")
    List<String> hw;

    @Mixin PredictionInputs inputs;
    @Mixin TableOptions tableOptions;

    @Option(names = "--formats", required = true, split = ",", paramLabel = "F",
            description = "Formats to compare, comma-separated (dense, csr, csr-rowsplit, coo, bsr4x4, bsr16x16, bsr32x32, bsr64x64, 2:4).")
    List<String> formats;

    @Option(names = "--sparsity", split = ",", defaultValue = "0.5,0.7,0.9,0.95", paramLabel = "S",
            description = "Target sparsities; each format is judged under its own pattern: bsrRxC under RxC block pruning, "
                    + "2:4 and 1:2 under N:M pruning (50%% by construction), the others under magnitude pruning per layer; default ${DEFAULT-VALUE}.")
    List<Double> sparsities;

    @Option(names = "--batch", split = ",", defaultValue = "128", paramLabel = "N",
            description = "Tokens (columns of B), comma-separated, e.g. 1,16,128; default ${DEFAULT-VALUE}.")
    List<Long> batches;

    @Option(names = "--runtime", paramLabel = "NAME",
            description = "GPU software stack of the dense and 2:4 GEMMs (a runtime: preset; default: the spec's runtime: section, else cusparselt).")
    String runtime;

    @Option(names = "--traffic", defaultValue = "checked", paramLabel = "checked|analytical|simulated",
            description = "Memory traffic: checked (analytical, memsim replays as checks), analytical, or simulated (memsim replay where a traced kernel exists); default ${DEFAULT-VALUE}.")
    String traffic;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the table as JSON ('-' for standard output alone).")
    String json;

    @Option(names = "--html", paramLabel = "FILE", description = "Write a self-contained HTML report with charts.")
    String html;

    @Override
    public Integer call() {
        Outputs.checkFolder("--json", json);
        Outputs.checkFolder("--html", html);
        PrintWriter out = command.commandLine().getOut();
        for (long n : batches) Checks.positive(n, "--batch");
        List<HardwareSpec> specs = new ArrayList<>();
        for (String h : hw) specs.add(Runtimes.apply(HardwareSpecs.load(h), runtime));
        for (String f : formats) FormatNames.requirePredictable(f, "--formats");
        for (double s : sparsities) Checks.fraction(s, "--sparsity");
        if (formats.isEmpty()) throw new SparseprofException("--formats: give at least one format");
        Comparison c;
        PredictionInputs.DTypeChoice choice;
        try (Model m = inputs.openModel()) {
            choice = inputs.dtypeFor(m, null, null);
            c = Comparison.run(specs, m.layers(), formats, sparsities, batches, choice.dtype(),
                    SimulateCommand.trafficModel(traffic), TerminalProgressBar.forTerminal("compare: estimating layers"));
        }
        choice.announce("compare", command.commandLine().getErr());
        if (!Outputs.jsonOnStdout(json)) out.print(ComparisonReport.table(c, tableOptions.wide));
        Outputs.write(json, () -> ComparisonReport.json(c), out);
        if (html != null) HtmlReport.writeComparison(Path.of(html), c);
        return Main.EXIT_OK;
    }
}
