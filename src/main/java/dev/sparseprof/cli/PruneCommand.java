package dev.sparseprof.cli;

import dev.sparseprof.advise.Recipe;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.model.WeightShapes;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneResult;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof prune [MODEL] --out FILE.safetensors ...}: prunes every GEMM layer (linear and
 * conv; embedding gathers are kept as they are) and writes all tensors as safetensors: each pruned
 * layer as fp32 in PyTorch order under its layer name, every other tensor unchanged, and
 * {@code __metadata__} recording the pruning ({@code sparseprof.prune} holds the options, which
 * parse again), the source model and the kept counts. {@code profile FILE} reads it back.
 */
@Command(name = "prune", mixinStandardHelpOptions = true,
        description = "Magnitude (per layer or global), N:M, block or row pruning of a model, written as safetensors.")
final class PruneCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Mixin ModelArgument model;

    @Option(names = "--out", required = true, paramLabel = "FILE.safetensors", description = "Where to write the pruned model.")
    Path out;

    @Option(names = "--sparsity", paramLabel = "S", description = "Fraction of weights (or, with --block, of blocks) to zero.")
    String sparsity;

    @Option(names = "--scope", paramLabel = "layer|global", description = "Magnitude ranking per layer (default) or over all layers.")
    String scope;

    @Option(names = "--nm", paramLabel = "N:M", description = "Keep the N largest of every M consecutive weights along the reduction dimension.")
    String nm;

    @Option(names = "--block", paramLabel = "RxC", description = "Prune whole RxC blocks by L2 norm (with --sparsity).")
    String block;

    @Option(names = "--rows", paramLabel = "S", description = "Prune this fraction of rows (output channels) by L2 norm.")
    String rows;

    @Option(names = "--recipe", paramLabel = "FILE.yaml", description = "Prune each layer as the recipe says (written by advise --recipe); no other pruning option.")
    Path recipe;

    @Override
    public Integer call() {
        Recipe plan = null;
        if (recipe != null) {
            if (sparsity != null || scope != null || nm != null || block != null || rows != null) {
                throw new SparseprofException("prune: --recipe takes no other pruning option");
            }
            plan = Recipe.read(recipe);
        }
        PruneSpec how = plan != null ? null : PruneSpec.of(sparsity, scope, nm, block, rows);
        if (!out.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".safetensors")) {
            throw new SparseprofException("--out " + out + ": the pruned model is written as safetensors; name it *.safetensors");
        }
        Outputs.checkFolder("--out", out.toString());
        PrintWriter stdout = spec.commandLine().getOut();
        try (Model m = model.open()) {
            List<GemmLayer> pruned = new ArrayList<>();
            List<LayerWeights> weights = new ArrayList<>();
            for (GemmLayer l : m.layers()) {
                if (l.kind() == LayerKind.EMBEDDING_GATHER) continue;
                Checks.toIntExact(l.params(), "layer '" + l.name() + "' size");
                pruned.add(l);
                weights.add(new LayerWeights(l.name(), l.rows(), l.cols(), l.matrix().toDense()));
            }
            if (pruned.isEmpty()) throw new SparseprofException(m.source() + ": no linear or conv layers to prune");
            List<PruneResult> results = plan == null ? Pruner.apply(how, weights) : applyRecipe(plan, pruned, weights);
            List<Tensor> tensors = tensorsToWrite(m, pruned, weights);
            long before = 0;
            long after = 0;
            long elements = 0;
            for (PruneResult r : results) {
                before += r.nonZerosBefore();
                after += r.nonZerosAfter();
                elements += r.elements();
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put("sparseprof.prune", describe(how));
            metadata.put("sparseprof.source", m.source());
            metadata.put("sparseprof.source_format", m.format());
            metadata.put("sparseprof.pruned_layers", Integer.toString(results.size()));
            metadata.put("sparseprof.kept_weights", after + " of " + elements);
            SafetensorsWriter.write(out, tensors, metadata);
            stdout.print(table(m, how, results, before, after, elements));
        }
        return Main.EXIT_OK;
    }

    /** Each layer the recipe names pruned as it says (after checking names and shapes), the others as they are. */
    private static List<PruneResult> applyRecipe(Recipe plan, List<GemmLayer> layers, List<LayerWeights> weights) {
        Map<String, int[]> shapes = new LinkedHashMap<>();
        for (GemmLayer l : layers) shapes.put(l.name(), new int[] {l.rows(), l.cols()});
        plan.check(shapes);
        List<PruneResult> results = new ArrayList<>(weights.size());
        for (LayerWeights w : weights) {
            PruneSpec s = plan.specFor(w.name());
            if (s != null) results.add(Pruner.apply(s, List.of(w)).get(0));
            else {
                long nnz = 0;
                for (float v : w.values()) if (v != 0) nnz++;
                results.add(new PruneResult(w.name(), w.values().length, nnz, nnz));
            }
        }
        return results;
    }

    private String describe(PruneSpec how) {
        return how != null ? how.describe() : "--recipe " + recipe.getFileName();
    }

    /** Pruned layers first (in model order, under their layer names), then every other tensor unchanged. */
    private static List<Tensor> tensorsToWrite(Model m, List<GemmLayer> pruned, List<LayerWeights> weights) {
        List<Tensor> tensors = new ArrayList<>();
        Set<String> replaced = new HashSet<>();
        for (int i = 0; i < pruned.size(); i++) {
            GemmLayer l = pruned.get(i);
            tensors.add(Tensor.ofFloats(l.name(), WeightShapes.pytorchOrder(m, l), weights.get(i).values()));
            replaced.add(l.tensorName());
        }
        for (Tensor t : m.tensors()) if (!replaced.contains(t.name())) tensors.add(t);
        return tensors;
    }

    private String table(Model m, PruneSpec how, List<PruneResult> results, long before, long after, long elements) {
        TextTable t = new TextTable("layer", "weights", "nnz before", "nnz after", "sparsity after");
        t.rightAlign(1, 2, 3, 4);
        for (PruneResult r : results) {
            t.row(r.name(), r.elements(), r.nonZerosBefore(), r.nonZerosAfter(), ProfileCommand.pct(r.sparsityAfter()));
        }
        t.rule();
        t.row("total (" + results.size() + " layers)", elements, before, after, ProfileCommand.pct(elements == 0 ? 0 : 1.0 - (double) after / elements));
        return m.source() + ": pruned with " + describe(how) + "\n" + t.render() + "wrote " + out + "\n";
    }
}
