package dev.sparseprof.advise;

import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneResult;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Per GEMM layer, the L2 norm over calibration tokens of each input channel of the layer's input,
 * {@code ||X_j||_2} for j in 0..K-1 (K: the layer's reduction size, the second number of the shape
 * every command prints; for a conv, the im2col order: input channel major, then kernel row, then
 * kernel column). With them the pruning criterion is Wanda's score {@code |W_ij| * ||X_j||_2}
 * (Sun et al., "A Simple and Effective Pruning Approach for Large Language Models", 2023): every
 * pattern ranks the weights of {@code W diag(||X||)} as magnitude, N:M, block and row pruning rank
 * {@code W}, and the same survivors are kept in {@code W}. The file is JSON:
 * <pre>{"version": 1, "layers": {"LAYER NAME": [K non-negative numbers], ...}}</pre>
 * Reading is strict: another version, an unknown key, a layer the model lacks, a vector of another
 * length, a negative, NaN or infinite norm are one line naming the file.
 */
public final class ActivationNorms {
    public static final int VERSION = 1;

    private final String file;
    private final long crc32;
    private final Map<String, float[]> norms;

    private ActivationNorms(String file, long crc32, Map<String, float[]> norms) {
        this.file = file;
        this.crc32 = crc32;
        this.norms = Collections.unmodifiableMap(norms);
    }

    /** The file name as given. */
    public String file() {
        return file;
    }

    /** The CRC-32 of the file's bytes (a recipe records it, so prune applies the norms advise planned with). */
    public long crc32() {
        return crc32;
    }

    /** The layer's norms, or null when the file has none for it (that layer is then ranked by magnitude). */
    public float[] of(String layer) {
        return norms.get(layer);
    }

    /** Reads and checks {@code path}; {@code shapes}: rows x cols of every GEMM layer of the model, by name. */
    public static ActivationNorms read(Path path, Map<String, int[]> shapes) {
        ActivationNorms n = read(path);
        n.check(shapes);
        return n;
    }

    /**
     * Checks the file against the model: every layer it names is a GEMM layer of {@code shapes}
     * (rows x cols by name) with K = cols norms.
     */
    public void check(Map<String, int[]> shapes) {
        for (Map.Entry<String, float[]> e : norms.entrySet()) {
            int[] shape = shapes.get(e.getKey());
            if (shape == null) throw new SparseprofException(file + ": layers." + e.getKey() + ": not a GEMM layer of the model");
            if (e.getValue().length != shape[1]) {
                throw new SparseprofException(file + ": layers." + e.getKey() + ": " + e.getValue().length + " norms for K = " + shape[1] + " input channels");
            }
        }
    }

    /** Reads {@code path} (the values checked; the layers and lengths by {@link #check}). */
    public static ActivationNorms read(Path path) {
        String name = path.toString();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            throw new SparseprofException(name + ": cannot read the activation norms (" + e.getMessage() + ")", e);
        }
        CRC32 crc = new CRC32();
        crc.update(bytes);
        Object root;
        try {
            root = Json.parse(new String(bytes, StandardCharsets.UTF_8));
        } catch (SparseprofException e) {
            throw new SparseprofException(name + ": " + e.getMessage(), e);
        }
        if (!(root instanceof Map<?, ?> top)) throw new SparseprofException(name + ": expected a JSON object {\"version\": 1, \"layers\": {...}}");
        for (Object k : top.keySet()) {
            if (!k.equals("version") && !k.equals("layers")) throw new SparseprofException(name + ": " + k + ": unknown key (allowed: version, layers)");
        }
        if (!(top.get("version") instanceof Number ver) || ver.doubleValue() != VERSION) {
            throw new SparseprofException(name + ": version: this program reads version: " + VERSION + ", got " + top.get("version"));
        }
        if (!(top.get("layers") instanceof Map<?, ?> layers)) throw new SparseprofException(name + ": layers: missing or not an object of layer name -> [norms]");
        Map<String, float[]> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : layers.entrySet()) {
            String layer = (String) e.getKey();
            if (!(e.getValue() instanceof List<?> list)) throw new SparseprofException(name + ": layers." + layer + ": expected a list of norms, one per input channel");
            float[] v = new float[list.size()];
            for (int j = 0; j < v.length; j++) {
                Object x = list.get(j);
                double d = x instanceof Number n ? n.doubleValue() : Double.NaN;
                if (!(d >= 0) || Double.isInfinite(d) || Float.isInfinite((float) d)) {
                    throw new SparseprofException(name + ": layers." + layer + "[" + j + "]: a norm must be a finite non-negative number, got " + x);
                }
                v[j] = (float) d;
            }
            out.put(layer, v);
        }
        return new ActivationNorms(name, crc.getValue(), out);
    }

    /**
     * Prunes {@code values} (a {@code rows x cols} layer, row-major, in place) by {@code spec} under
     * Wanda's score: the spec's selection is made on {@code W diag(norms)} and the weights it zeroes
     * there are zeroed in {@code W}, and so is every weight of a zero score (an input channel whose
     * norm is zero adds nothing to the output), which keeps the result within the pattern (a subset
     * of its survivors). Null norms: plain {@link Pruner#apply}.
     */
    public static PruneResult prune(PruneSpec spec, String layer, int rows, int cols, float[] values, float[] norms) {
        if (norms == null) return Pruner.apply(spec, List.of(new LayerWeights(layer, rows, cols, values))).get(0);
        long before = 0;
        float[] scored = new float[values.length];
        for (int r = 0; r < rows; r++) {
            int base = r * cols;
            for (int j = 0; j < cols; j++) {
                float w = values[base + j];
                if (w != 0) before++;
                // Wanda's score keeps the weight's sign out of the ranking; |w| * norm, with a zero norm a zero score.
                scored[base + j] = Math.abs(w) * norms[j];
            }
        }
        Pruner.apply(spec, List.of(new LayerWeights(layer, rows, cols, scored)));
        long after = 0;
        for (int i = 0; i < values.length; i++) {
            if (scored[i] == 0) values[i] = 0;
            else after++;
        }
        return new PruneResult(layer, values.length, before, after);
    }
}
