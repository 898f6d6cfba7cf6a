package dev.sparseprof.cli;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.LayerLabel;
import dev.sparseprof.model.ReadOptions;
import dev.sparseprof.model.Model;
import dev.sparseprof.report.Csv;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.LengthSummary;
import dev.sparseprof.sparse.stats.MatrixScan;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmCompliance;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.sparse.stats.ScanOptions;
import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.TerminalProgressBar;
import dev.sparseprof.util.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof profile [MODEL]}: per layer and in total, the GEMM shape, parameters, nnz,
 * sparsity, row-length spread, N:M compliance, block density, dense vs sparse FLOPs for a batch of
 * N tokens, theoretical speedup, and critical layers.
 *
 * <p>Critical-layer rule: when the model's parameter-weighted sparsity S over its GEMM layers is at
 * least {@value #CRITICAL_MIN_MODEL_SPARSITY}, a GEMM layer whose sparsity is at least
 * {@value #CRITICAL_GAP} below S is critical (the seed's example: 90% overall, one layer at 50%),
 * because its dense work bounds the speedup the rest of the model's sparsity can give.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Per-layer sparsity, FLOPs, N:M compliance, block density and row-length spread of a model.")
final class ProfileCommand implements RunsDirect {
    static final double CRITICAL_MIN_MODEL_SPARSITY = 0.5;
    static final double CRITICAL_GAP = 0.25;

    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Mixin ModelArgument model;
    @Mixin TableOptions tableOptions;

    @Option(names = "--batch", defaultValue = "128", paramLabel = "N",
            description = "Tokens (samples) per GEMM: the dense operand's width N (times output pixels for convolutions). Default ${DEFAULT-VALUE}.")
    long batch;

    @Option(names = "--activation-density", defaultValue = "1.0", paramLabel = "D|FILE",
            description = "Fraction of activations that are non-zero, in (0, 1] (the sparse kernel skips the zeros too), "
                    + "or a JSON file {\"layer name\": D, ...} per layer (unlisted layers: 1). Default ${DEFAULT-VALUE}.")
    String activationDensity;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the profile as JSON ('-': standard output, alone).")
    String json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write one CSV row per layer.")
    String csv;

    /** One layer's statistics and work for a batch. */
    record LayerProfile(GemmLayer layer, MatrixStats stats, long denseColumns, double activationDensity, long denseFlops,
                        double sparseFlops, boolean critical) {
        boolean isGemm() {
            return layer.kind() != LayerKind.EMBEDDING_GATHER;
        }

        double speedup() {
            return sparseFlops == 0 ? Double.POSITIVE_INFINITY : denseFlops / sparseFlops;
        }
    }

    /**
     * Activation density: one value for every layer, or per layer from a JSON object file
     * ({@code file} non-null; layers it does not list have density 1).
     */
    record ActivationDensity(double global, Path file, Map<String, Double> perLayer) {
        ActivationDensity {
            perLayer = Map.copyOf(perLayer);
        }

        static ActivationDensity parse(String text) {
            try {
                return new ActivationDensity(check(Double.parseDouble(text.trim()), "--activation-density"), null, Map.of());
            } catch (NumberFormatException notANumber) {
                return fromFile(Path.of(text));
            }
        }

        private static ActivationDensity fromFile(Path file) {
            Map<String, Object> json;
            try {
                json = Json.parseObject(Files.readString(file));
            } catch (IOException e) {
                throw new SparseprofException("--activation-density " + file + ": neither a number nor a readable file");
            } catch (SparseprofException e) {
                throw new SparseprofException("--activation-density " + file + ": " + e.getMessage());
            }
            Map<String, Double> densities = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : json.entrySet()) {
                if (!(e.getValue() instanceof Number n)) {
                    throw new SparseprofException("--activation-density " + file + ": layer '" + e.getKey() + "' has no number");
                }
                densities.put(e.getKey(), check(n.doubleValue(), file + ": layer '" + e.getKey() + "'"));
            }
            return new ActivationDensity(1.0, file, densities);
        }

        private static double check(double d, String what) {
            if (!(d > 0 && d <= 1)) throw new SparseprofException(what + ": activation density must lie in (0, 1], got " + d);
            return d;
        }

        /** One density per layer; a file naming a layer the model does not have is an error. */
        double[] forLayers(List<GemmLayer> layers) {
            double[] out = new double[layers.size()];
            Set<String> names = new HashSet<>();
            for (int i = 0; i < out.length; i++) {
                names.add(layers.get(i).name());
                out[i] = perLayer.getOrDefault(layers.get(i).name(), global);
            }
            for (String name : perLayer.keySet()) {
                if (!names.contains(name)) throw new SparseprofException("--activation-density " + file + ": the model has no layer '" + name + "'");
            }
            return out;
        }

        String label() {
            return file == null ? fmt(global, 2) : "per layer from " + file;
        }
    }

    /** Sums over the GEMM layers (gathers are listed, not multiplied). */
    record Totals(int gemmLayers, long params, long nnz, long denseFlops, double sparseFlops, int criticalLayers) {
        double sparsity() {
            return params == 0 ? 0.0 : 1.0 - (double) nnz / params;
        }

        double speedup() {
            return sparseFlops == 0 ? Double.POSITIVE_INFINITY : denseFlops / sparseFlops;
        }
    }

    @Override
    public Integer call() {
        return call(spec.commandLine().getOut());
    }

    @Override
    public int call(PrintWriter out) {
        Checks.positive(batch, "--batch");
        ActivationDensity density = ActivationDensity.parse(activationDensity);
        Outputs.checkFolder("--json", json);
        Outputs.checkFolder("--csv", csv);
        try (Model m = model.open()) {
            List<MatrixStats> stats = scan(m, "profile");
            List<LayerProfile> layers = profile(m.layers(), stats, batch, density.forLayers(m.layers()));
            Totals totals = totals(layers);
            ProfileGroups groups = ProfileGroups.of(m);
            if (!Outputs.jsonOnStdout(json)) out.print(table(m, density, layers, totals, groups));
            if (csv != null) AtomicFiles.writeString(Path.of(csv), csv(layers, groups));
            Outputs.write(json, () -> json(m, density, layers, totals, groups), out);
        }
        return Main.EXIT_OK;
    }

    /** Scans every layer of {@code m} once with the default statistics (all cores, one team for the model), with a progress bar over all rows. */
    static List<MatrixStats> scan(Model m, String label) {
        return scan(m, label, ScanOptions.DEFAULT);
    }

    static List<MatrixStats> scan(Model m, String label, ScanOptions what) {
        Progress bar = TerminalProgressBar.forTerminal(label);
        ScanOptions options = what.withThreads(Math.max(1, Runtime.getRuntime().availableProcessors()));
        List<MatrixView> matrices = new ArrayList<>(m.layers().size());
        for (GemmLayer l : m.layers()) matrices.add(l.matrix());
        List<MatrixStats> stats = MatrixScan.ofAll(matrices, options, bar);
        bar.finish();
        return stats;
    }

    /** {@code density[i]} is layer i's activation density. */
    static List<LayerProfile> profile(List<GemmLayer> layers, List<MatrixStats> stats, long batch, double[] density) {
        long params = 0;
        long nnz = 0;
        for (int i = 0; i < layers.size(); i++) {
            if (layers.get(i).kind() == LayerKind.EMBEDDING_GATHER) continue;
            params += layers.get(i).params();
            nnz += stats.get(i).nnz();
        }
        double modelSparsity = params == 0 ? 0 : 1.0 - (double) nnz / params;
        List<LayerProfile> out = new ArrayList<>();
        for (int i = 0; i < layers.size(); i++) {
            GemmLayer l = layers.get(i);
            MatrixStats s = stats.get(i);
            boolean gemm = l.kind() != LayerKind.EMBEDDING_GATHER;
            long n = l.denseColumns(batch);
            long dense = gemm ? Math.multiplyExact(2L * l.params(), n) : 0;
            double sparse = gemm ? 2.0 * s.nnz() * n * density[i] : 0;
            boolean critical = gemm && modelSparsity >= CRITICAL_MIN_MODEL_SPARSITY && s.sparsity() <= modelSparsity - CRITICAL_GAP;
            out.add(new LayerProfile(l, s, n, density[i], dense, sparse, critical));
        }
        return out;
    }

    static Totals totals(List<LayerProfile> layers) {
        int count = 0;
        long params = 0;
        long nnz = 0;
        long dense = 0;
        double sparse = 0;
        int critical = 0;
        for (LayerProfile p : layers) {
            if (!p.isGemm()) continue;
            count++;
            params += p.layer().params();
            nnz += p.stats().nnz();
            dense += p.denseFlops();
            sparse += p.sparseFlops();
            if (p.critical()) critical++;
        }
        return new Totals(count, params, nnz, dense, sparse, critical);
    }

    private String table(Model m, ActivationDensity density, List<LayerProfile> layers, Totals t, ProfileGroups groups) {
        TextTable table = new TextTable("layer", "kind", "shape", "params", "nnz", "sparsity", "2:4", "1:2", "4:8",
                "row nnz min/mean/max", "row cv", "blk16 dens", "N", "speedup", "");
        table.rightAlign(3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13).optional(3, 7, 8, 9, 11, 12);
        int[] order = groups.order();
        for (int k = 0; k < order.length; k++) {
            if (k > 0 && groups.startsGroup(order[k - 1], order[k])) table.rule();
            LayerProfile p = layers.get(order[k]);
            MatrixStats s = p.stats();
            LengthSummary r = s.rowSummary();
            boolean taps = p.layer().depthwise(); // N:M along kh·kw taps: no pattern anything runs
            table.row(groups.tableName(order[k]), kindLabel(p.layer().kind()), p.layer().rows() + "x" + p.layer().cols(), p.layer().params(),
                    s.nnz(), pct(s.sparsity()), taps ? "-" : pct(s.nm(NmPattern.TWO_FOUR).fraction()), taps ? "-" : pct(s.nm(NmPattern.ONE_TWO).fraction()),
                    taps ? "-" : pct(s.nm(NmPattern.FOUR_EIGHT).fraction()),
                    String.format(Locale.ROOT, "%d/%.1f/%d", r.min(), r.mean(), r.max()), fmt(r.cv(), 2),
                    pct(s.blocks(BlockShape.B16X16).nonEmptyFraction()), p.isGemm() ? Long.toString(p.denseColumns()) : "-",
                    p.isGemm() ? speedup(p.speedup()) : "gather", p.critical() ? "CRITICAL" : "");
        }
        table.rule();
        boolean none = t.gemmLayers() == 0; // only gathers: no compliance or speedup to total
        table.row("total (" + t.gemmLayers() + " GEMM layers)", "", "", t.params(), t.nnz(), none ? "-" : pct(t.sparsity()),
                none ? "-" : pct(nmTotal(layers, NmPattern.TWO_FOUR)), none ? "-" : pct(nmTotal(layers, NmPattern.ONE_TWO)),
                none ? "-" : pct(nmTotal(layers, NmPattern.FOUR_EIGHT)), "", "", "", "", none ? "-" : speedup(t.speedup()),
                t.criticalLayers() > 0 ? t.criticalLayers() + " critical" : "");
        StringBuilder sb = new StringBuilder();
        sb.append(m.source()).append(" (").append(m.format()).append("): ").append(layers.size()).append(layers.size() == 1 ? " layer" : " layers").append(", batch N = ")
                .append(batch).append(" tokens, activation density ").append(density.label()).append('\n');
        sb.append(table.render(tableOptions.wide));
        sb.append(String.format(Locale.ROOT, "dense %.3f GFLOP, sparse %.3f GFLOP (2 x nnz x N x activation density), theoretical speedup %s%n",
                t.denseFlops() / 1e9, t.sparseFlops() / 1e9, none ? "-" : speedup(t.speedup())));
        if (none) sb.append("note: no weight here feeds a GEMM the reader knows (MatMul, Gemm, Conv, ...): nothing to multiply, only gathers\n");
        double storedBits = 0;
        long params = 0;
        boolean encoded = false;
        for (LayerProfile p : layers) {
            storedBits += p.layer().params() * p.layer().storedBitsPerWeight();
            params += p.layer().params();
            encoded |= p.layer().storedBitsPerWeight() != p.layer().storedDType().bits();
        }
        if (encoded) {
            // quantized codes with their scales (GGUF blocks, GPTQ/AWQ, bitsandbytes, FP4, MLX): what the file holds per weight, gathers included
            sb.append(String.format(Locale.ROOT, "weights as stored: %s, %.3g bits per weight with their scales%n",
                    Units.formatBytes(Math.round(storedBits / 8)), storedBits / params));
        }
        sb.append(String.format(Locale.ROOT, "critical: a GEMM layer at least %.0f points below the model's weighted sparsity (%s), when that is >= %.0f%%%n",
                CRITICAL_GAP * 100, pct(t.sparsity()), CRITICAL_MIN_MODEL_SPARSITY * 100));
        sb.append(groups.notes());
        long depthwise = layers.stream().filter(p -> p.layer().depthwise()).count();
        if (depthwise > 0) {
            sb.append(String.format(Locale.ROOT, "note: %d depthwise conv layer%s: N:M along a filter's kh·kw taps is no pattern a sparse tensor core "
                    + "or an N:M kernel runs; their N:M columns show '-', the totals leave them out, and prune --nm leaves them dense%n",
                    depthwise, depthwise == 1 ? "" : "s"));
        }
        long convs = layers.stream().filter(p -> p.layer().kind() == LayerKind.CONV).count();
        long unsized = layers.stream().filter(p -> p.layer().kind() == LayerKind.CONV && p.layer().columnsPerSample() == 1).count();
        ReadOptions read = model.shapes.readOptions();
        boolean sizeGiven = read.inputSize() != null || !read.inputShapes().isEmpty();
        if (unsized > 0 && !sizeGiven) {
            sb.append("note: conv layers whose output size the file does not give count N = batch (1 output pixel)\n"
                    + "      give the input's size: --input-shape NAME=1x3xHxW (ONNX), --input-size HxW (TF.js model.json or graph model)\n");
        } else if (unsized > 0) {
            sb.append(String.format(Locale.ROOT, "note: %d of %d conv layers count N = batch (1 output pixel): their maps are 1x1, "
                    + "or an op on their path is not modelled (docs/models.md)%n", unsized, convs));
        }
        return sb.toString();
    }

    /** Group-weighted N:M compliance of {@code pattern} over the GEMM layers, depthwise ones left out (their groups run along kh·kw taps). */
    static double nmTotal(List<LayerProfile> layers, NmPattern pattern) {
        long groups = 0;
        long compliant = 0;
        for (LayerProfile p : layers) {
            if (!p.isGemm() || p.layer().depthwise()) continue;
            NmCompliance c = p.stats().nm(pattern);
            groups += c.groups();
            compliant += c.compliantGroups();
        }
        return groups == 0 ? 1.0 : (double) compliant / groups;
    }

    private String json(Model m, ActivationDensity density, List<LayerProfile> layers, Totals t, ProfileGroups groups) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("model").beginObject().field("source", m.source()).field("format", m.format());
        if (!groups.skipped().isEmpty()) {
            w.name("leftOut").beginArray();
            for (String s : groups.skipped()) w.value(s);
            w.endArray();
        }
        if (!groups.readAs().isEmpty()) {
            w.name("readAs").beginArray();
            for (String s : groups.readAs()) w.value(s);
            w.endArray();
        }
        w.endObject();
        w.field("batch", batch);
        if (density.file() == null) w.field("activationDensity", density.global());
        else w.field("activationDensityFile", density.file().toString());
        w.name("criticalRule").beginObject().field("minModelSparsity", CRITICAL_MIN_MODEL_SPARSITY).field("gap", CRITICAL_GAP).endObject();
        w.name("layers").beginArray();
        for (int i = 0; i < layers.size(); i++) {
            LayerProfile p = layers.get(i);
            MatrixStats s = p.stats();
            LengthSummary r = s.rowSummary();
            w.beginObject().field("name", p.layer().name()).field("tensor", p.layer().tensorName()).field("kind", p.layer().kind().name().toLowerCase(Locale.ROOT));
            LayerLabel label = groups.label(i);
            if (label.known()) {
                w.name("label").beginObject().field("block", label.block()).field("role", label.role()).field("expert", label.expert());
                if (label.disagreement() != null) w.field("configDisagreement", label.disagreement());
                w.endObject();
            }
            w.name("shape").beginObject().field("rows", p.layer().rows()).field("cols", p.layer().cols()).endObject();
            w.field("params", p.layer().params()).field("nnz", s.nnz()).field("sparsity", s.sparsity());
            // how the file stores it: the value type, and the bits per weight with any block scales (4.625 for 4-bit GPTQ)
            w.field("storedDType", p.layer().storedDType().label()).field("storedBitsPerWeight", p.layer().storedBitsPerWeight());
            if (p.layer().depthwise()) w.field("depthwise", true); // its nm fractions run along kh·kw taps: no pattern anything runs
            w.name("nm").beginObject();
            for (NmCompliance c : s.nm()) w.field(c.pattern().label(), c.fraction());
            w.endObject();
            w.name("rowLength").beginObject().field("min", r.min()).field("mean", r.mean()).field("max", r.max()).field("cv", r.cv()).endObject();
            w.name("blockDensity").beginObject();
            for (BlockDensity b : s.blocks()) {
                w.name(b.shape().label()).beginObject().field("nonEmptyFraction", b.nonEmptyFraction()).field("meanFill", b.meanFill()).endObject();
            }
            w.endObject();
            w.field("denseColumns", p.denseColumns()).field("activationDensity", p.activationDensity())
                    .field("denseFlops", p.denseFlops()).field("sparseFlops", p.sparseFlops());
            if (p.layer().tokenShare() < 1) w.field("tokenShare", p.layer().tokenShare()); // a routed expert's k / E of the tokens
            if (p.isGemm()) w.field("speedup", p.speedup());
            else w.name("speedup").nullValue();
            w.field("critical", p.critical()).endObject();
        }
        w.endArray();
        w.name("totals").beginObject().field("layers", layers.size()).field("gemmLayers", t.gemmLayers()).field("params", t.params())
                .field("nnz", t.nnz()).field("sparsity", t.sparsity());
        w.name("nm").beginObject();
        for (NmPattern pattern : ScanOptions.DEFAULT.patterns()) w.field(pattern.label(), nmTotal(layers, pattern));
        w.endObject();
        w.field("denseFlops", t.denseFlops()).field("sparseFlops", t.sparseFlops()).field("speedup", t.speedup())
                .field("criticalLayers", t.criticalLayers()).endObject();
        return w.endObject().toString();
    }

    private static String csv(List<LayerProfile> layers, ProfileGroups groups) {
        Csv c = new Csv(List.of("name", "kind", "rows", "cols", "params", "nnz", "sparsity", "nm_2_4", "nm_1_2", "nm_4_8",
                "row_min", "row_mean", "row_max", "row_cv", "block4x4_density", "block8x8_density", "block16x16_density",
                "dense_columns", "dense_flops", "sparse_flops", "speedup", "critical", "block", "role", "expert"));
        for (int i = 0; i < layers.size(); i++) {
            LayerProfile p = layers.get(i);
            LayerLabel label = groups.label(i);
            MatrixStats s = p.stats();
            LengthSummary r = s.rowSummary();
            c.row(p.layer().name(), p.layer().kind().name().toLowerCase(Locale.ROOT), p.layer().rows(), p.layer().cols(), p.layer().params(),
                    s.nnz(), s.sparsity(), s.nm(NmPattern.TWO_FOUR).fraction(), s.nm(NmPattern.ONE_TWO).fraction(), s.nm(NmPattern.FOUR_EIGHT).fraction(),
                    r.min(), r.mean(), r.max(), r.cv(), s.blocks(BlockShape.B4X4).nonEmptyFraction(), s.blocks(BlockShape.B8X8).nonEmptyFraction(),
                    s.blocks(BlockShape.B16X16).nonEmptyFraction(), p.denseColumns(), p.denseFlops(), p.sparseFlops(),
                    p.isGemm() && Double.isFinite(p.speedup()) ? p.speedup() : "", p.critical(),
                    label.block() >= 0 ? label.block() : "", label.role(), label.expert() >= 0 ? label.expert() : "");
        }
        return c.toString();
    }

    static String kindLabel(LayerKind k) {
        return switch (k) {
            case LINEAR -> "linear";
            case CONV -> "conv";
            case EMBEDDING_GATHER -> "gather";
        };
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.1f%%", f * 100);
    }

    private static String fmt(double v, int digits) {
        return String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    private static String speedup(double s) {
        return Double.isFinite(s) ? String.format(Locale.ROOT, "%.2fx", s) : "inf";
    }
}
