package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The layer rule for formats that hold bare tensors (safetensors, npy/npz, Matrix Market), which
 * follow PyTorch's storage order: every 2-D floating-point tensor is a {@link LayerKind#LINEAR}
 * weight stored {@code [out, in]} (A as stored), or an {@link LayerKind#EMBEDDING_GATHER} when its
 * name contains {@code embed} or is one of GPT-2's tables ({@code wte}, {@code wpe}); a 3-D to 5-D floating-point tensor is a convolution weight
 * {@code [out, in, k...]}, im2col's {@code [out, in·k...]} as stored, with N per sample 1 (the
 * file does not say the output size); 1-D tensors (biases, norms) and integer tensors are not layers.
 * A parameter pruned with {@code torch.nn.utils.prune} and saved as {@code P_orig} and {@code P_mask}
 * is the layer {@code P} of the masked weight.
 *
 * <p>One exception to {@code [out, in]}, known from {@code config.json}: transformers' {@code Conv1D}
 * ("works like a Linear layer but the weights are transposed", {@code pytorch_utils.py}) stores its
 * weight {@code [in, out]}. The model types whose modeling code builds their attention and MLP
 * projections from it ({@link #CONV1D_MODEL_TYPES}: GPT-2 and its kin) have those weights
 * ({@code c_attn}, {@code q_attn}, {@code c_proj}, {@code c_fc}) read transposed, so that A is
 * {@code [out, in]}, N:M groups run along the input and {@code prune} writes into the stored layout.
 * GPTBigCode (StarCoder) uses the same names over {@code nn.Linear}, hence the rule goes by model type.
 */
final class TensorLayers {
    private TensorLayers() {}

    /** The suffixes {@code torch.nn.utils.prune} gives a pruned parameter until {@code prune.remove}. */
    static final String ORIG = "_orig", MASK = "_mask";

    /** {@code config.json} model types whose projections are transformers {@code Conv1D} modules (modeling_gpt2, modeling_openai, modeling_imagegpt, modeling_decision_transformer). */
    static final Set<String> CONV1D_MODEL_TYPES = Set.of("gpt2", "openai-gpt", "imagegpt", "decision_transformer");
    /** The {@code Conv1D} modules of those models. */
    private static final Set<String> CONV1D_MODULES = Set.of("c_attn", "q_attn", "c_proj", "c_fc");
    /** The metadata key of the model type, as {@link HfConfig#metadata} writes it. */
    private static final String MODEL_TYPE = "config.model_type";

    /**
     * Every tensor's layer, where it is one. A pruned parameter saved before {@code prune.remove}
     * ({@code P_orig} and {@code P_mask} of one shape) is the one layer {@code P} of the effective
     * weight {@code P_orig * P_mask}; its mask is no layer of its own.
     */
    static List<GemmLayer> of(List<Tensor> tensors) {
        return of(tensors, false);
    }

    private static List<GemmLayer> of(List<Tensor> tensors, boolean conv1d) {
        Map<String, Tensor> byName = new HashMap<>();
        for (Tensor t : tensors) byName.put(t.name(), t);
        Set<String> masks = new HashSet<>();
        for (Tensor t : tensors) {
            Tensor mask = maskOf(t, byName);
            if (mask != null) masks.add(mask.name());
        }
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (masks.contains(t.name())) continue;
            Tensor mask = maskOf(t, byName);
            boolean inOut = conv1d && isConv1dWeight(mask == null ? t.name() : unpruned(t.name()), t);
            GemmLayer l = mask == null ? of(t, inOut) : masked(t, mask, inOut);
            if (l != null) layers.add(l);
        }
        return layers;
    }

    /**
     * {@link #of(List)}, and where integer tensors of rank 2 or more are named as weights (GPTQ/AWQ's
     * int32 {@code qweight}, bitsandbytes' packed uint8 {@code weight}, int8 {@code weight}s), which no
     * layer reads, a {@code tensors.skipped} note naming them in {@code metadata}: the numbers leave
     * them out, and say so.
     */
    static List<GemmLayer> of(List<Tensor> tensors, Map<String, String> metadata) {
        List<String> skipped = new ArrayList<>();
        for (Tensor t : tensors) {
            if (!t.dtype().isFloatingPoint() && t.rank() >= 2 && t.name().toLowerCase(Locale.ROOT).contains("weight")) {
                skipped.add(t.name() + " " + t.dtype().name().toLowerCase(Locale.ROOT));
            }
        }
        if (!skipped.isEmpty()) {
            metadata.put("tensors.skipped", skipped.size() + (skipped.size() == 1 ? " integer weight tensor" : " integer weight tensors")
                    + " (packed or quantized: GPTQ/AWQ qweight, bitsandbytes, int8) not decoded, left out of the layers: "
                    + String.join(", ", skipped.subList(0, Math.min(3, skipped.size()))) + (skipped.size() > 3 ? ", ..." : ""));
        }
        String modelType = metadata.get(MODEL_TYPE);
        boolean conv1d = modelType != null && CONV1D_MODEL_TYPES.contains(modelType);
        List<GemmLayer> layers = of(tensors, conv1d);
        if (conv1d) {
            long transposed = layers.stream().filter(l -> isConv1dWeight(l.name(), null)).count();
            metadata.put("layers.transposed", transposed + " Conv1D weights (" + modelType + ": stored [in, out], transformers' Conv1D layout) read as [out, in]");
        }
        GemmLayer head = tiedHead(layers, tensors, metadata);
        if (head != null) {
            layers.add(head);
            metadata.put("layers.tied", head.name() + " is " + head.tensorName() + " (tie_word_embeddings): the one matrix is both the input "
                    + "embedding's gather and the output GEMM, and pruning that GEMM prunes the embedding");
        }
        return layers;
    }

    /** Names of a causal LM's output projection, where a checkpoint stores one. */
    private static final List<String> HEAD_NAMES = List.of("lm_head.weight", "embed_out.weight", "output.weight");
    /** Names of the input word embedding, whose matrix a tied output projection reuses. */
    private static final List<String> WORD_EMBEDDINGS = List.of("embed_tokens.weight", "wte.weight", "word_embeddings.weight",
            "embed_in.weight", "tok_embeddings.weight");

    /**
     * The output projection of a causal LM whose checkpoint leaves it out because it is the input
     * embedding's matrix (transformers saves a tied {@code lm_head} once, as the embedding): when
     * config.json's {@code architectures} names a causal LM ({@code *ForCausalLM}, {@code *LMHeadModel}),
     * {@code tie_word_embeddings} is not false (transformers' default is true; LLaMA-style configs
     * write false when untied), no head tensor is stored and one word embedding of
     * {@code vocab_size} rows is. Null otherwise: encoders and untied checkpoints are read as stored.
     */
    private static GemmLayer tiedHead(List<GemmLayer> layers, List<Tensor> tensors, Map<String, String> metadata) {
        String architectures = metadata.getOrDefault("config.architectures", "");
        boolean causal = java.util.Arrays.stream(architectures.split(",")).anyMatch(a -> a.endsWith("ForCausalLM") || a.endsWith("LMHeadModel"));
        if (!causal || "false".equals(metadata.get("config." + HfConfig.TIE))) return null;
        for (Tensor t : tensors) {
            for (String head : HEAD_NAMES) if (t.name().equals(head) || t.name().endsWith("." + head)) return null;
        }
        String vocab = metadata.get("config.vocab_size");
        for (GemmLayer l : layers) {
            if (l.kind() != LayerKind.EMBEDDING_GATHER || vocab != null && l.rows() != Integer.parseInt(vocab)) continue;
            for (String word : WORD_EMBEDDINGS) {
                if (l.name().equals(word) || l.name().endsWith("." + word)) {
                    return new GemmLayer("lm_head.weight", l.tensorName(), LayerKind.LINEAR, l.rows(), l.cols(), 1, l.matrix());
                }
            }
        }
        return null;
    }

    /** A weight of a {@code Conv1D} module ({@code ...c_attn.weight}), rank 2 where {@code t} is given. */
    private static boolean isConv1dWeight(String name, Tensor t) {
        if (t != null && t.rank() != 2 || !name.endsWith(".weight")) return false;
        String module = name.substring(0, name.length() - ".weight".length());
        return CONV1D_MODULES.contains(module.substring(module.lastIndexOf('.') + 1));
    }

    private static String unpruned(String orig) {
        return orig.substring(0, orig.length() - ORIG.length());
    }

    /** {@code P_mask} beside {@code P_orig}, of its shape and a floating type, or null. */
    private static Tensor maskOf(Tensor t, Map<String, Tensor> byName) {
        if (!t.name().endsWith(ORIG)) return null;
        Tensor mask = byName.get(t.name().substring(0, t.name().length() - ORIG.length()) + MASK);
        return mask != null && mask.dtype().isFloatingPoint() && Arrays.equals(mask.shape(), t.shape()) ? mask : null;
    }

    private static GemmLayer masked(Tensor orig, Tensor mask, boolean inOut) {
        GemmLayer l = of(orig, inOut);
        if (l == null) return null;
        String name = unpruned(orig.name());
        TensorMatrix view = ((TensorMatrix) l.matrix()).withMask(matrix(mask, l.rows(), l.cols(), inOut));
        return new GemmLayer(name, orig.name(), kindOf(name, orig.rank()), l.rows(), l.cols(), 1, view);
    }

    static GemmLayer of(Tensor t) {
        return of(t, false);
    }

    /** {@code t}'s layer; {@code inOut}: a 2-D weight stored {@code [in, out]} (a {@code Conv1D}'s), read transposed. */
    private static GemmLayer of(Tensor t, boolean inOut) {
        if (!t.dtype().isFloatingPoint() || t.rank() < 2 || t.rank() > 5 || t.elementCount() == 0) return null;
        long rows = inOut ? t.dim(1) : t.dim(0);
        long cols = t.elementCount() / rows;
        if (rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) return null;
        TensorMatrix view = matrix(t, (int) rows, (int) cols, inOut);
        return new GemmLayer(t.name(), t.name(), kindOf(t.name(), t.rank()), (int) rows, (int) cols, 1, view);
    }

    private static TensorMatrix matrix(Tensor t, int rows, int cols, boolean inOut) {
        return inOut ? TensorMatrix.transposed(t, rows, cols) : TensorMatrix.rowMajor(t, rows, cols);
    }

    /** Convolution above rank 2; a gather for an embedding table ({@code embed} in the name, GPT-2's {@code wte} and {@code wpe}). */
    private static LayerKind kindOf(String name, int rank) {
        String lower = name.toLowerCase(Locale.ROOT);
        boolean table = lower.contains("embed") || lower.endsWith("wpe.weight") || lower.endsWith("wte.weight");
        return rank > 2 ? LayerKind.CONV : table ? LayerKind.EMBEDDING_GATHER : LayerKind.LINEAR;
    }
}
