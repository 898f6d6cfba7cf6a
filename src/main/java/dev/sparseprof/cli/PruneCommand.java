package dev.sparseprof.cli;

import dev.sparseprof.advise.Recipe;
import dev.sparseprof.model.FileSources;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.PrunedWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneResult;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.sparse.prune.StoredGlobalMagnitude;
import dev.sparseprof.sparse.prune.StoredLayer;
import dev.sparseprof.sparse.prune.StoredPruner;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof prune [MODEL] --out FILE ...}: prunes every GEMM layer (linear and conv;
 * embedding gathers are kept as they are) and writes the model back in the kind of file it came
 * from ({@link PrunedWriter}): an ONNX model as the same ModelProto with its weights' raw_data
 * zeroed where pruned; a safetensors file (or a sharded folder, with its index) under the same
 * tensor names, dtypes and shapes. Only the pruned weights' stored zeros change: surviving weights
 * keep their stored bits. The metadata ({@code sparseprof.prune} holds the options, which parse
 * again) records what was done. Every method streams tensor by tensor: a whole row-major fp16,
 * bf16 or fp32 layer in its stored width, chunk by chunk; any other layer as one layer's floats.
 * {@code --scope global} over stored layers first ranks them all in counting passes
 * ({@link StoredGlobalMagnitude}); only a global prune with a layer that cannot stream holds every
 * layer's floats. A terminal shows one progress bar over the bytes written.
 * Depthwise convolutions are left dense by N:M, which would run along K = kh·kw of one channel.
 */
@Command(name = "prune", mixinStandardHelpOptions = true,
        description = "Magnitude (per layer or global), N:M, block or row pruning of a model, written back in the kind of file it came from.")
final class PruneCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Mixin ModelArgument model;

    @Option(names = "--out", required = true, paramLabel = "FILE|FOLDER",
            description = "Where to write the pruned model: *.onnx for an ONNX model, *.safetensors, or a new folder for a sharded checkpoint.")
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
        if (recipe != null && (sparsity != null || scope != null || nm != null || block != null || rows != null)) {
            throw new SparseprofException("prune: --recipe takes no other pruning option");
        }
        Recipe plan = recipe == null ? null : Recipe.read(recipe);
        PruneSpec how = plan != null ? null : PruneSpec.of(sparsity, scope, nm, block, rows);
        PrunedWriter.Kind kind = PrunedWriter.Kind.of(out);
        if (kind != PrunedWriter.Kind.FOLDER) Outputs.checkFolder("--out", out.toString());
        PrintWriter stdout = spec.commandLine().getOut();
        try (Model m = model.open()) {
            PrunedWriter.check(m, out);
            Map<String, List<GemmLayer>> byTensor = new LinkedHashMap<>();
            List<GemmLayer> skipped = new ArrayList<>();
            int count = 0;
            for (GemmLayer l : m.layers()) {
                if (l.kind() == LayerKind.EMBEDDING_GATHER) continue;
                if (how instanceof PruneSpec.Nm && l.depthwise()) {
                    skipped.add(l);
                    continue;
                }
                Checks.toIntExact(l.params(), "layer '" + l.name() + "' size");
                if (l.tensor() == null) {
                    throw new SparseprofException(m.source() + ": layer '" + l.name() + "' is stored encoded (GGUF quantized blocks, "
                            + "MXFP4 safetensors, MatMulNBits, GPTQ/AWQ/pack-quantized int32 words, NVFP4, bitsandbytes 4-bit, MLX, a compressed-tensors bitmask): its zeros cannot be written back into that form; "
                            + "prune the dense checkpoint");
                }
                byTensor.computeIfAbsent(l.tensorName(), k -> new ArrayList<>()).add(l);
                count++;
            }
            if (count == 0) throw new SparseprofException(m.source() + ": no linear or conv layers to prune");
            if (!skipped.isEmpty()) {
                spec.commandLine().getErr().println("prune: " + skipped.size() + " depthwise conv layer(s) left dense (e.g. " + skipped.get(0).name()
                        + "): " + how.describe() + " would run along K = " + skipped.get(0).cols() + " weights of one input channel, not a reduction over channels");
            }
            if (plan != null) checkRecipe(plan, byTensor);
            Map<GemmLayer, PruneResult> results = new ConcurrentHashMap<>();
            Map<GemmLayer, StoredGlobalMagnitude.Cut> cuts = globalCuts(how, byTensor);
            Map<GemmLayer, float[]> global = cuts == null ? globalPruning(how, byTensor, results) : null;
            Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put("sparseprof.prune", describe(how));
            metadata.put("sparseprof.source", m.source());
            metadata.put("sparseprof.source_format", m.format());
            metadata.put("sparseprof.pruned_layers", Integer.toString(count));
            if (!skipped.isEmpty()) metadata.put("sparseprof.left_dense", skipped.size() + " depthwise layers (N:M along kh*kw)");
            Progress bar = new SerialProgress(TerminalProgressBar.forTerminal("prune"));
            long bytes = 0;
            for (String name : byTensor.keySet()) bytes += byTensor.get(name).get(0).tensor().data().byteSize();
            WrittenBytes written = new WrittenBytes(bar, bytes);
            PrunedWriter.write(m, out, byTensor.keySet(), new LayerEditor(byTensor, how, plan, global, cuts, results, written), metadata);
            bar.finish();
            List<PruneResult> ordered = new ArrayList<>();
            for (List<GemmLayer> ls : byTensor.values()) for (GemmLayer l : ls) ordered.add(results.get(l));
            stdout.print(table(m, how, ordered));
        }
        return Main.EXIT_OK;
    }

    /**
     * Prunes each written tensor's layers: a tensor that is one whole row-major fp16, bf16 or fp32
     * layer streams through {@link StoredPruner} in its stored width (no float copy, no tensor-sized
     * buffer); any other (strided views, quantized integers, several layers in one tensor, global
     * scope) is decoded to floats, pruned by {@link Pruner} and written back with
     * {@link GemmLayer#writeZeros}. Both give the same survivors. Called from the writer's threads.
     */
    private record LayerEditor(Map<String, List<GemmLayer>> byTensor, PruneSpec how, Recipe plan, Map<GemmLayer, float[]> global,
                               Map<GemmLayer, StoredGlobalMagnitude.Cut> cuts, Map<GemmLayer, PruneResult> results,
                               WrittenBytes written) implements PrunedWriter.Editor {
        private PruneSpec specOf(GemmLayer l) {
            return plan == null ? how : plan.specFor(l.name());
        }

        @Override
        public boolean stream(Tensor tensor, PrunedWriter.ByteSink sink) throws IOException {
            List<GemmLayer> ls = byTensor.get(tensor.name());
            StoredLayer stored = storedLayer(ls);
            if (global != null || stored == null) return false;
            GemmLayer l = ls.get(0);
            PrunedWriter.ByteSink counted = (offset, bytes) -> {
                sink.write(offset, bytes);
                written.add(bytes.byteSize());
            };
            if (cuts != null) {
                results.put(l, cuts.get(l).write(counted::write));
                return true;
            }
            // Wanda's criterion (a recipe with activation norms) ranks floats: Recipe.apply in edit.
            if (plan != null && plan.needsFloats(l.name())) return false;
            PruneSpec spec = specOf(l);
            if (spec != null && !StoredPruner.streams(spec)) return false;
            results.put(l, StoredPruner.prune(spec, stored, counted::write));
            return true;
        }

        @Override
        public void edit(Tensor tensor, MemorySegment target) {
            for (GemmLayer l : byTensor.get(tensor.name())) {
                float[] values = global != null ? global.get(l) : l.matrix().toDense();
                if (global == null) {
                    PruneSpec spec = specOf(l);
                    // A recipe prunes as advise estimated (its criterion included): Recipe.apply.
                    results.put(l, plan != null ? plan.apply(l.name(), l.rows(), l.cols(), values) : spec == null ? unchanged(l.name(), values)
                            : Pruner.apply(spec, List.of(new LayerWeights(l.name(), l.rows(), l.cols(), values))).get(0));
                }
                l.writeZeros(values, target);
            }
            written.add(target.byteSize());
        }
    }

    /** The tensor's one layer in its stored width, when it is a whole row-major fp16, bf16 or fp32 layer (the streaming path); else null. */
    private static StoredLayer storedLayer(List<GemmLayer> ls) {
        if (ls.size() != 1 || !ls.get(0).wholeRowMajorTensor()) return null;
        GemmLayer l = ls.get(0);
        Tensor tensor = l.tensor();
        StoredLayer.Width width = switch (tensor.dtype()) {
            case F16 -> StoredLayer.Width.F16;
            case BF16 -> StoredLayer.Width.BF16;
            case F32 -> StoredLayer.Width.F32;
            default -> null;
        };
        return width == null ? null : new StoredLayer(l.name(), l.rows(), l.cols(), width, FileSources.of(tensor.data()));
    }

    /**
     * {@code --scope global} with every layer stored whole (the streaming path): each layer's share
     * of the global cut, from counting passes; null for other methods, or when a layer cannot stream.
     */
    private static Map<GemmLayer, StoredGlobalMagnitude.Cut> globalCuts(PruneSpec how, Map<String, List<GemmLayer>> byTensor) {
        if (!(how instanceof PruneSpec.Magnitude mag) || mag.scope() != PruneScope.GLOBAL) return null;
        List<GemmLayer> layers = new ArrayList<>();
        List<StoredLayer> stored = new ArrayList<>();
        for (List<GemmLayer> ls : byTensor.values()) {
            StoredLayer s = storedLayer(ls);
            if (s == null) return null;
            layers.add(ls.get(0));
            stored.add(s);
        }
        Progress bar = TerminalProgressBar.forTerminal("prune: ranking");
        List<StoredGlobalMagnitude.Cut> planned = StoredGlobalMagnitude.plan(stored, mag.sparsity(), bar);
        bar.finish();
        Map<GemmLayer, StoredGlobalMagnitude.Cut> out = new HashMap<>();
        for (int i = 0; i < layers.size(); i++) out.put(layers.get(i), planned.get(i));
        return out;
    }

    /** Bytes of the edited tensors written so far, shown as the progress bar's fraction; called from the writer's threads. */
    private static final class WrittenBytes {
        private final Progress bar;
        private final long total;
        private final AtomicLong done = new AtomicLong();

        WrittenBytes(Progress bar, long total) {
            this.bar = bar;
            this.total = total;
        }

        void add(long bytes) {
            bar.update(done.addAndGet(bytes), total);
        }
    }

    /** A progress display fed from several threads, one update at a time. */
    private record SerialProgress(Progress display) implements Progress {
        @Override
        public synchronized void update(long done, long total) {
            display.update(done, total);
        }

        @Override
        public synchronized void finish() {
            display.finish();
        }
    }

    /** The recipe against the layers that can be written back (names and shapes); a fault is one line naming the recipe. */
    private static void checkRecipe(Recipe plan, Map<String, List<GemmLayer>> byTensor) {
        Map<String, int[]> shapes = new LinkedHashMap<>();
        for (List<GemmLayer> ls : byTensor.values()) for (GemmLayer l : ls) shapes.put(l.name(), new int[] {l.rows(), l.cols()});
        plan.check(shapes);
    }

    /** A layer the recipe leaves as it is. */
    private static PruneResult unchanged(String name, float[] values) {
        long nnz = 0;
        for (float v : values) if (v != 0) nnz++;
        return new PruneResult(name, values.length, nnz, nnz);
    }

    private String describe(PruneSpec how) {
        return how != null ? how.describe() : "--recipe " + recipe.getFileName();
    }

    /** {@code --scope global} over layers that cannot all stream: every layer's floats are pruned in memory first; null for the other methods. */
    private static Map<GemmLayer, float[]> globalPruning(PruneSpec how, Map<String, List<GemmLayer>> byTensor, Map<GemmLayer, PruneResult> results) {
        if (!(how instanceof PruneSpec.Magnitude mag) || mag.scope() != PruneScope.GLOBAL) return null;
        List<GemmLayer> layers = new ArrayList<>();
        List<LayerWeights> weights = new ArrayList<>();
        for (List<GemmLayer> ls : byTensor.values()) {
            for (GemmLayer l : ls) {
                layers.add(l);
                weights.add(new LayerWeights(l.name(), l.rows(), l.cols(), l.matrix().toDense()));
            }
        }
        List<PruneResult> r = Pruner.apply(how, weights);
        Map<GemmLayer, float[]> out = new HashMap<>();
        for (int i = 0; i < layers.size(); i++) {
            out.put(layers.get(i), weights.get(i).values());
            results.put(layers.get(i), r.get(i));
        }
        return out;
    }

    private String table(Model m, PruneSpec how, List<PruneResult> results) {
        long before = 0;
        long after = 0;
        long elements = 0;
        for (PruneResult r : results) {
            before += r.nonZerosBefore();
            after += r.nonZerosAfter();
            elements += r.elements();
        }
        TextTable t = new TextTable("layer", "weights", "nnz before", "nnz after", "sparsity after");
        t.rightAlign(1, 2, 3, 4);
        for (PruneResult r : results) {
            t.row(r.name(), r.elements(), r.nonZerosBefore(), r.nonZerosAfter(), ProfileCommand.pct(r.sparsityAfter()));
        }
        t.rule();
        t.row("total (" + results.size() + " layers)", elements, before, after, ProfileCommand.pct(elements == 0 ? 0 : 1.0 - (double) after / elements));
        return m.source() + ": pruned with " + describe(how) + "\n" + t.render() + "wrote " + out + " (" + PrunedWriter.Kind.of(out).name().toLowerCase(Locale.ROOT)
                + ", the source's tensor names and stored dtypes)\n";
    }
}
