package dev.sparseprof.advise;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.config.SafeYaml;
import dev.sparseprof.sparse.prune.PruneResult;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.util.SparseprofException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A pruning recipe: per layer name, the pattern and sparsity a plan chose; layers it does not name
 * are left as they are. Written by {@code advise --recipe}, applied by {@code prune --recipe}, which
 * prunes each named layer with exactly the {@link PruneSpec} the plan was estimated on. The file is
 * strict YAML ({@code version: 1}, unknown keys are errors); {@link #check} refuses a layer the
 * model does not have and a pattern the layer's shape cannot hold. With {@code criterion: wanda} the
 * recipe names the activation norms file advise planned with ({@code activationNorms}, relative to
 * the recipe's folder when not found as given) and its CRC-32; {@link #apply} then ranks Wanda's
 * score through {@link ActivationNorms#prune}, the code advise estimated with.
 */
public record Recipe(String file, Map<String, Step> steps, ActivationNorms norms) {
    /** Version 2 adds {@code criterion} ({@code magnitude} or {@code wanda}) and the activation norms file; 1 is still read. */
    public static final int VERSION = 2;

    /** One layer's pruning. */
    public record Step(Pattern pattern, double sparsity) {
        public Step {
            if (pattern == null) throw new SparseprofException("a recipe step needs a pattern");
            if (pattern.hasFixedSparsity()) sparsity = pattern.fixedSparsity();
            else if (!(sparsity >= 0 && sparsity <= 1)) throw new SparseprofException("sparsity must be in [0, 1], got " + sparsity);
        }

        public PruneSpec spec() {
            return pattern.spec(sparsity);
        }
    }

    public Recipe {
        steps = Collections.unmodifiableMap(new LinkedHashMap<>(steps));
    }

    /** The recipe of a plan: every pruned layer of it. */
    public static Recipe of(Plan plan) {
        Map<String, Step> steps = new LinkedHashMap<>();
        for (Plan.Choice c : plan.layers()) {
            if (c.point().candidate().kept()) continue;
            steps.put(c.name(), new Step(c.point().candidate().pattern(), c.sparsity()));
        }
        return new Recipe(null, steps, null);
    }

    /** The YAML text of a magnitude-ranked plan. */
    public static String yaml(Plan plan, String source) {
        return yaml(plan, source, null);
    }

    /** The YAML text, with the plan's machine, token count and promise; {@code norms}: the Wanda criterion's file (null: magnitude). */
    public static String yaml(Plan plan, String source, ActivationNorms norms) {
        StringBuilder b = new StringBuilder();
        b.append("# sparseprof pruning recipe: apply with  sparseprof prune MODEL --recipe THIS.yaml --out FILE\n");
        b.append("version: ").append(VERSION).append('\n');
        b.append("source: ").append(quote(source)).append('\n');
        b.append("spec: ").append(quote(plan.spec())).append('\n');
        b.append("tokens: ").append(plan.tokens()).append('\n');
        b.append("predictedSpeedup: ").append(String.format(Locale.ROOT, "%.6f", plan.predictedSpeedup())).append('\n');
        b.append("proxyLoss: ").append(String.format(Locale.ROOT, "%.6f", plan.proxyLoss())).append('\n');
        b.append("criterion: ").append(norms == null ? "magnitude" : "wanda").append('\n');
        if (norms != null) {
            b.append("activationProxyLoss: ").append(String.format(Locale.ROOT, "%.6f", plan.activationProxyLoss())).append('\n');
            b.append("activationNorms: ").append(quote(norms.file())).append('\n');
            b.append("activationNormsCrc32: ").append(norms.crc32()).append('\n');
        }
        Recipe r = of(plan);
        if (r.steps().isEmpty()) {
            b.append("layers: []\n");
            return b.toString();
        }
        b.append("layers:\n");
        for (Map.Entry<String, Step> e : r.steps().entrySet()) {
            b.append("  - {name: ").append(quote(e.getKey())).append(", pattern: ").append(quote(e.getValue().pattern().label()));
            if (!e.getValue().pattern().hasFixedSparsity()) {
                b.append(", sparsity: ").append(BigDecimal.valueOf(e.getValue().sparsity()).stripTrailingZeros().toPlainString());
            }
            b.append("}\n");
        }
        return b.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Reads and validates a recipe file; every fault is one line naming the file and the key. */
    public static Recipe read(Path file) {
        try {
            return parse(file);
        } catch (ConfigException e) {
            throw new SparseprofException(e.getMessage(), e);
        }
    }

    private static Recipe parse(Path file) {
        ConfigSource source = ConfigSource.of(file);
        ConfigMap root = ConfigMap.root(source.shortName(), SafeYaml.parse(source));
        long version = root.count("version");
        if (version != VERSION && version != 1) throw root.error("version", "this program reads version: 1 or " + VERSION + ", got " + version);
        if (version == 1) root.allow("version", "source", "spec", "tokens", "predictedSpeedup", "proxyLoss", "layers");
        else root.allow("version", "source", "spec", "tokens", "predictedSpeedup", "proxyLoss", "criterion", "activationProxyLoss",
                "activationNorms", "activationNormsCrc32", "layers");
        String criterion = root.string("criterion", "magnitude");
        if (!criterion.equals("magnitude") && !criterion.equals("wanda")) throw root.error("criterion", "must be magnitude or wanda, got '" + criterion + "'");
        if (criterion.equals("magnitude") && root.has("activationNorms")) throw root.error("activationNorms", "given with criterion: magnitude");
        ActivationNorms norms = null;
        if (criterion.equals("wanda")) {
            String named = root.string("activationNorms");
            Path at = Path.of(named);
            if (!Files.exists(at) && !at.isAbsolute() && file.getParent() != null) at = file.getParent().resolve(named);
            if (!Files.exists(at)) throw root.error("activationNorms", "file '" + named + "' not found (as given or beside the recipe)");
            norms = ActivationNorms.read(at);
            long crc = root.count("activationNormsCrc32");
            if (crc != norms.crc32()) {
                throw root.error("activationNormsCrc32", at + " is not the file the plan was made with (CRC-32 " + norms.crc32() + ", the recipe says " + crc + ")");
            }
        }
        Map<String, Step> steps = new LinkedHashMap<>();
        for (ConfigMap item : root.list("layers")) {
            item.allow("name", "pattern", "sparsity");
            String name = item.string("name");
            Pattern p = item.parse("pattern", Pattern::parse, SparseprofException.class);
            double s = p.hasFixedSparsity() ? p.fixedSparsity() : item.number("sparsity");
            if (p.hasFixedSparsity() && item.has("sparsity")) throw item.error("sparsity", p.label() + " has a fixed sparsity; give none");
            if (!(s >= 0 && s <= 1)) throw item.error("sparsity", "must be in [0, 1], got " + s);
            if (steps.put(name, new Step(p, s)) != null) throw item.error("name", "layer '" + name + "' is named twice");
        }
        return new Recipe(source.shortName(), steps, norms);
    }

    /**
     * Checks the recipe against a model's GEMM layers (names, and rows x cols per name): an unknown
     * layer or a pattern its shape cannot hold is an error naming the recipe file and the layer.
     */
    public void check(Map<String, int[]> shapes) {
        for (Map.Entry<String, Step> e : steps.entrySet()) {
            int[] shape = shapes.get(e.getKey());
            if (shape == null) throw new SparseprofException(file + ": layer '" + e.getKey() + "' is not a GEMM layer of the model");
            String why = e.getValue().pattern().impossibleOn(shape[0], shape[1]);
            if (why != null) throw new SparseprofException(file + ": layer '" + e.getKey() + "': " + why);
        }
        if (norms != null) norms.check(shapes);
    }

    /**
     * True when {@link #apply} must see the layer's values as floats (the Wanda criterion): a writer
     * that prunes stored bytes as they stream cannot rank this layer and hands it to {@link #apply}.
     */
    public boolean needsFloats(String layer) {
        return norms != null && steps.containsKey(layer);
    }

    /**
     * Prunes {@code values} (the layer's {@code rows x cols} weights, row-major, in place) as the
     * recipe says: its step's {@link PruneSpec}, ranked by Wanda's score under {@code criterion: wanda}.
     */
    public PruneResult apply(String layer, int rows, int cols, float[] values) {
        Step s = steps.get(layer);
        if (s == null) {
            long nnz = 0;
            for (float v : values) if (v != 0) nnz++;
            return new PruneResult(layer, values.length, nnz, nnz);
        }
        return ActivationNorms.prune(s.spec(), layer, rows, cols, values, norms == null ? null : norms.of(layer));
    }

    /** The pruning of {@code layer}, or null when the recipe leaves it as it is. */
    public PruneSpec specFor(String layer) {
        Step s = steps.get(layer);
        return s == null ? null : s.spec();
    }
}
