package dev.sparseprof.cli;

import dev.sparseprof.advise.ActivationNorms;
import dev.sparseprof.advise.Advice;
import dev.sparseprof.advise.LayerCandidates;
import dev.sparseprof.advise.Pattern;
import dev.sparseprof.advise.Plan;
import dev.sparseprof.advise.Planner;
import dev.sparseprof.advise.Recipe;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.report.AdviseReport;
import dev.sparseprof.report.HtmlReport;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof advise}: per layer, spec and token count, each pattern's predicted speedup over
 * a sparsity grid (the layer's real weights pruned, then estimated as {@code simulate --format auto}
 * would), its break-even sparsity and the pruning-error proxy; then a model-level plan for a target
 * speedup or a loss budget, as a table, JSON and a recipe {@code prune --recipe} applies.
 */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = "Which layers to prune, to which pattern and how far, for a real speedup on the given machines and token counts.")
final class AdviseCommand implements Callable<Integer> {
    /** The loss budget when neither a target speedup nor a budget is given. */
    static final double DEFAULT_LOSS_BUDGET = 0.3;

    @Mixin CommonOptions common;
    @Spec CommandSpec command;
    @Mixin ModelArgument model;

    @Option(names = "--hw", required = true, split = ",", paramLabel = "SPEC", description = "Hardware specs (YAML files or presets), comma-separated.")
    List<String> hw;

    @Option(names = "--tokens", required = true, split = ",", paramLabel = "N", description = "Token counts (columns of B), comma-separated, e.g. 1,16,128,2048.")
    List<Long> tokens;

    @Option(names = "--patterns", split = ",", paramLabel = "P",
            description = "Candidate patterns: unstructured, rows, N:M (2:4, 1:2, 4:8), bsrRxC (bsr4x4, bsr16x16, ...); default unstructured,2:4,bsr4x4,bsr16x16,rows.")
    List<String> patterns;

    @Option(names = "--target-speedup", paramLabel = "X", description = "Reach this whole-model speedup with the least proxy loss.")
    Double targetSpeedup;

    @Option(names = "--loss-budget", paramLabel = "L",
            description = "The best speedup whose whole-model proxy loss (sqrt(sum ||W-W'||^2 / sum ||W||^2)) stays within L; default 0.3 when no target is given.")
    Double lossBudget;

    @Option(names = "--recipe", paramLabel = "FILE.yaml", description = "Write the (first) plan as a recipe for prune --recipe.")
    String recipe;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the plans and curves as JSON ('-' for standard output alone).")
    String json;

    @Option(names = "--activation-norms", paramLabel = "FILE",
            description = "Per-layer input-channel L2 norms (JSON, docs/advise.md; scripts/activation-norms.py makes it): prune by Wanda's "
                    + "score |W|*||x|| and add the activation-aware proxy (the loss budget then bounds that one).")
    Path activationNorms;

    @Option(names = "--html", paramLabel = "FILE", description = "Write an HTML report: speedup vs sparsity per pattern and spec, and each plan's speedup vs proxy-loss frontier.")
    String html;

    @Override
    public Integer call() {
        if (targetSpeedup != null && lossBudget != null) throw new SparseprofException("advise: give --target-speedup or --loss-budget, not both");
        Planner.Goal goal = targetSpeedup != null ? Planner.Goal.speedup(targetSpeedup)
                : Planner.Goal.budget(lossBudget != null ? lossBudget : DEFAULT_LOSS_BUDGET);
        for (long n : tokens) if (n <= 0) throw new SparseprofException("--tokens: must be positive, got " + n);
        Outputs.checkFolder("--json", json);
        Outputs.checkFolder("--recipe", recipe);
        Outputs.checkFolder("--html", html);
        List<Pattern> candidates = new ArrayList<>();
        for (String p : patterns == null ? Advice.DEFAULT_PATTERNS : patterns) {
            Pattern parsed = SimulateCommand.option("--patterns", () -> Pattern.parse(p));
            if (!candidates.contains(parsed)) candidates.add(parsed);
        }
        List<HardwareSpec> specs = new ArrayList<>();
        for (String h : hw) specs.add(HardwareSpecs.load(h));
        String modelName = model.label();
        PrintWriter out = command.commandLine().getOut();
        List<Plan> plans = new ArrayList<>();
        ActivationNorms norms;
        long encoded;
        try (Model m = model.open()) {
            encoded = Simulation.gemmLayers(m.layers()).stream().filter(l -> l.tensor() == null).count();
            norms = activationNorms == null ? null : ActivationNorms.read(activationNorms, shapes(m));
            List<LayerCandidates> layers = Advice.candidates(m.layers(), candidates, Advice.GRID, norms,
                    TerminalProgressBar.forTerminal("advise: pruning and scanning layers"));
            // The value type simulate picks by default: the weights' stored dtype when narrow, else each machine's.
            DType stored = m.storedWeightDType();
            for (int i = 0; i < specs.size(); i++) {
                for (long n : tokens) plans.add(Advice.plan(specs.get(i), hw.get(i), n, layers, goal, stored));
            }
        }
        String note = recipe != null && plans.size() > 1
                ? "--recipe " + recipe + " holds the plan for " + plans.get(0).spec() + " at " + plans.get(0).tokens()
                        + " tokens (the first of " + plans.size() + ")"
                : null;
        if (!Outputs.jsonOnStdout(json)) out.print(AdviseReport.table(plans));
        if (encoded > 0 && !Outputs.jsonOnStdout(json)) {
            // prune cannot write zeros into quantized blocks, packed codes or a compressed bitmask (PruneCommand refuses them)
            out.printf("note: %d layer%s stored encoded (quantized blocks, packed codes, a compressed bitmask): prune refuses the file;%n"
                    + "      a plan for %s applies to the float checkpoint %s quantized or compressed from%n",
                    encoded, encoded == 1 ? " is" : "s are", encoded == 1 ? "it" : "them", encoded == 1 ? "it was" : "they were");
        }
        if (recipe != null) {
            Outputs.write(recipe, () -> Recipe.yaml(plans.get(0), modelName, norms), out);
            command.commandLine().getErr().println("advise: " + (note != null ? note : "wrote " + recipe));
        }
        Outputs.write(json, () -> AdviseReport.json(plans, modelName, note), out);
        if (html != null) HtmlReport.writeAdvice(Path.of(html), plans, modelName);
        return Main.EXIT_OK;
    }

    /** Each GEMM layer's rows and columns by name, what activation norms are checked against. */
    private static Map<String, int[]> shapes(Model m) {
        Map<String, int[]> shapes = new LinkedHashMap<>();
        for (GemmLayer l : Simulation.gemmLayers(m.layers())) shapes.put(l.name(), new int[] {l.rows(), l.cols()});
        return shapes;
    }
}
