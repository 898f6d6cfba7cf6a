package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The layer rule for formats that hold bare tensors (safetensors, torch.save, npy/npz, Matrix
 * Market, Hugging Face folders), which follow PyTorch's storage order: every 2-D floating-point
 * tensor is a {@link LayerKind#LINEAR} weight stored {@code [out, in]} (A as stored), or an
 * {@link LayerKind#EMBEDDING_GATHER} when its name contains {@code embed} or is one of GPT-2's
 * tables ({@code wte}, {@code wpe}) or T5's and BART's {@code shared}; a 3-D to 5-D floating-point tensor is a convolution weight
 * {@code [out, in, k...]}, im2col's {@code [out, in·k...]} as stored, with N per sample 1 (the
 * file does not say the output size); 1-D tensors, biases and integer tensors are not layers. A
 * parameter pruned with {@code torch.nn.utils.prune} and saved as {@code P_orig} and {@code P_mask}
 * is the layer {@code P} of the masked weight.
 *
 * <p>Where {@code config.json}'s model type says a weight is stored otherwise, {@link Layout} reads
 * it so that A is {@code [out, in]}, N:M groups run along the input and {@code prune} writes into
 * the stored layout: transformers' {@code Conv1D} ("works like a Linear layer but the weights are
 * transposed", {@code pytorch_utils.py}; GPT-2 and its kin) stores {@code [in, out]}, and fused MoE
 * experts ({@code mlp.experts.gate_up_proj}) are one 3-D tensor, {@code [E, in, out]} where the
 * modeling code multiplies them with {@code bmm} (Llama 4, gpt-oss). The rules go by model type,
 * not by name: GPTBigCode (StarCoder) names the same modules over {@code nn.Linear}. A causal LM
 * whose {@code lm_head} is tied to its input embedding, and so not stored, gets that output GEMM
 * over the embedding's matrix ({@link TiedHeads}); weights stored encoded (quantized codes, bitmask
 * compression) are read by their own views ({@link EncodedLayers}).
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
        return of(tensors, "", byName(tensors));
    }

    /** The tensors by name, for the lookups of a weight's siblings (its mask, scales, bitmask). */
    private static Map<String, Tensor> byName(List<Tensor> tensors) {
        Map<String, Tensor> byName = new HashMap<>();
        for (Tensor t : tensors) byName.put(t.name(), t);
        return byName;
    }

    /** {@link #of(List)}, each weight in the layout {@code modelType}'s modeling code stores it in ({@link Layout}). */
    private static List<GemmLayer> of(List<Tensor> tensors, String modelType, Map<String, Tensor> byName) {
        Set<String> masks = new HashSet<>();
        for (Tensor t : tensors) {
            Tensor mask = maskOf(t, byName);
            if (mask != null) masks.add(mask.name());
        }
        List<GemmLayer> layers = new ArrayList<>();
        for (Tensor t : tensors) {
            if (masks.contains(t.name())) continue;
            Tensor mask = maskOf(t, byName);
            Layout layout = Layout.of(mask == null ? t.name() : unpruned(t.name()), t, modelType);
            GemmLayer l = mask == null ? of(t, layout) : masked(t, mask, layout);
            if (l != null) layers.add(l);
        }
        return layers;
    }

    /**
     * {@link #of(List)}, with the encoded weights decoded ({@link EncodedLayers}, whose notes on sets that
     * do not hold together go into {@code metadata}), and where integer tensors of rank 2 or more are
     * named as weights that no layer reads (MLX's uint32 {@code weight}, int8 {@code weight}s without
     * row scales), a {@code tensors.skipped} note naming them in {@code metadata}: the numbers leave
     * them out, and say so.
     */
    static List<GemmLayer> of(List<Tensor> tensors, Map<String, String> metadata) {
        Map<String, Tensor> byName = byName(tensors);
        EncodedLayers encoded = EncodedLayers.of(tensors, byName, metadata);
        metadata.putAll(encoded.notes());
        List<String> skipped = new ArrayList<>();
        for (Tensor t : tensors) {
            String lower = t.name().toLowerCase(Locale.ROOT);
            if (encoded.claimed().contains(t.name())) continue;
            if (!t.dtype().isFloatingPoint() && t.rank() >= 2 && isQuantizedCodes(lower)) {
                skipped.add(t.name() + " " + t.dtype().name().toLowerCase(Locale.ROOT));
            }
        }
        if (!skipped.isEmpty()) {
            metadata.put("tensors.skipped", skipped.size() + (skipped.size() == 1 ? " integer weight tensor" : " integer weight tensors")
                    + " (packed or quantized codes without the scales a decoder needs: int8, uint32, MXFP4 _blocks) not decoded, left out of the layers: "
                    + String.join(", ", skipped.subList(0, Math.min(3, skipped.size()))) + (skipped.size() > 3 ? ", ..." : ""));
        }
        String modelType = metadata.getOrDefault(MODEL_TYPE, "");
        List<GemmLayer> layers = of(tensors.stream().filter(t -> !encoded.claimed().contains(t.name())).toList(), modelType, byName);
        layers.addAll(encoded.layers());
        Map<Layout, Integer> moved = new EnumMap<>(Layout.class);
        for (Tensor t : tensors) moved.merge(Layout.of(t.name(), t, modelType), 1, Integer::sum);
        String from = modelType.isEmpty() ? "" : " (" + modelType + ")";
        for (Layout l : Layout.values()) if (l.note != null && moved.containsKey(l)) metadata.put(l.key, moved.get(l) + " " + l.note + from);
        GemmLayer head = TiedHeads.of(layers, tensors, metadata);
        if (head != null) TiedHeads.add(head, layers, metadata);
        return RoutedExperts.apply(layers, metadata);
    }

    /**
     * Whether an integer tensor's name says it holds a weight's codes: {@code weight} in it (GPTQ's
     * {@code qweight}, compressed-tensors' {@code weight_packed}, int8 weights), gpt-oss's {@code _blocks},
     * HQQ's {@code W_q} and AQLM's {@code codes}; not an index or mask buffer ({@code position_ids},
     * {@code relative_position_index}).
     */
    private static boolean isQuantizedCodes(String lower) {
        return lower.contains("weight") || lower.endsWith("_blocks") || lower.endsWith(".w_q") || lower.endsWith(".codes");
    }

    /** How a weight's elements sit in its tensor, from its name, rank and the checkpoint's model type. */
    enum Layout {
        /** PyTorch's {@code [out, in]} ({@code [out, in, k...]} for a convolution). */
        AS_STORED(null, null),
        /** A transformers {@code Conv1D} weight, {@code [in, out]}. */
        CONV1D("layers.transposed", "Conv1D weights, stored [in, out] (transformers' Conv1D layout), read as [out, in]"),
        /** Fused experts {@code [E, out, in]}: one layer of all experts' rows, as GGUF's {@code ffn_*_exps}. */
        EXPERTS("layers.experts", "fused expert tensors [E, out, in] read as one layer of all experts' rows"),
        /** Fused experts {@code [E, in, out]} (Llama 4's and gpt-oss's {@code torch.bmm} operands). */
        EXPERTS_IN_OUT("layers.experts", "fused expert tensors, stored [E, in, out] (bmm operands), read as one layer of all experts' [out, in] rows");

        final String key;
        final String note;

        Layout(String key, String note) {
            this.key = key;
            this.note = note;
        }

        static Layout of(String name, Tensor t, String modelType) {
            int dot = name.lastIndexOf('.');
            String last = name.substring(dot + 1);
            String module = last.equals("weight") && dot > 0 ? name.substring(name.lastIndexOf('.', dot - 1) + 1, dot) : last;
            String parent = name.substring(0, Math.max(0, last.equals("weight") ? name.lastIndexOf('.', dot - 1) : dot));
            if (t.rank() == 2 && last.equals("weight") && CONV1D_MODEL_TYPES.contains(modelType) && CONV1D_MODULES.contains(module)) return CONV1D;
            if (t.rank() == 3 && (parent.equals("experts") || parent.endsWith(".experts")) && EXPERT_STACKS.contains(module)) {
                return EXPERTS_IN_OUT_MODEL_TYPES.contains(modelType) ? EXPERTS_IN_OUT : EXPERTS;
            }
            return AS_STORED;
        }
    }

    /** The fused expert parameters of transformers' MoE modules ({@code mlp.experts.gate_up_proj}). */
    private static final Set<String> EXPERT_STACKS = Set.of("gate_up_proj", "gate_proj", "up_proj", "down_proj");
    /** Model types whose fused experts are {@code [E, in, out]} (modeling_llama4's and modeling_gpt_oss's experts multiply with {@code bmm}). */
    static final Set<String> EXPERTS_IN_OUT_MODEL_TYPES = Set.of("llama4", "llama4_text", "gpt_oss");

    private static String unpruned(String orig) {
        return orig.substring(0, orig.length() - ORIG.length());
    }

    /** {@code P_mask} beside {@code P_orig}, of its shape and a floating type, or null. */
    private static Tensor maskOf(Tensor t, Map<String, Tensor> byName) {
        if (!t.name().endsWith(ORIG)) return null;
        Tensor mask = byName.get(t.name().substring(0, t.name().length() - ORIG.length()) + MASK);
        return mask != null && mask.dtype().isFloatingPoint() && Arrays.equals(mask.shape(), t.shape()) ? mask : null;
    }

    private static GemmLayer masked(Tensor orig, Tensor mask, Layout layout) {
        GemmLayer l = of(orig, layout);
        if (l == null) return null;
        String name = unpruned(orig.name());
        TensorMatrix view = ((TensorMatrix) l.matrix()).withMask(matrix(mask, layout));
        return new GemmLayer(name, orig.name(), l.kind(), l.rows(), l.cols(), 1, view);
    }

    static GemmLayer of(Tensor t) {
        return of(t, Layout.AS_STORED);
    }

    /** {@code t}'s layer, read in {@code layout}; none for biases, 1-D, integer or empty tensors. */
    private static GemmLayer of(Tensor t, Layout layout) {
        if (!t.dtype().isFloatingPoint() || t.rank() < 2 || t.rank() > 5 || t.elementCount() == 0 || isBias(t.name())
                || isQuantizationParameter(t.name())) {
            return null;
        }
        TensorMatrix view = matrix(t, layout);
        if (view == null) return null;
        LayerKind kind = layout == Layout.AS_STORED ? kindOf(t.name(), t.rank()) : LayerKind.LINEAR;
        return new GemmLayer(t.name(), t.name(), kind, view.rows(), view.cols(), 1, view);
    }

    /** A as {@code layout} reads {@code t}, or null when it exceeds int rows or columns. */
    private static TensorMatrix matrix(Tensor t, Layout layout) {
        long[] d = t.shape();
        long rows = switch (layout) {
            case AS_STORED -> d[0];
            case CONV1D -> d[1];
            case EXPERTS -> d[0] * d[1];
            case EXPERTS_IN_OUT -> d[0] * d[2];
        };
        long cols = t.elementCount() / rows;
        if (rows > Integer.MAX_VALUE || cols > Integer.MAX_VALUE) return null;
        return switch (layout) {
            case AS_STORED, EXPERTS -> TensorMatrix.rowMajor(t, (int) rows, (int) cols);
            case CONV1D -> TensorMatrix.transposed(t, (int) rows, (int) cols);
            case EXPERTS_IN_OUT -> TensorMatrix.groupedTransposed(t, (int) d[0], (int) d[2], (int) cols, d[2], d[1] * d[2]);
        };
    }

    /**
     * A quantized weight's side tensor, which scales or offsets its codes and is never multiplied by
     * itself: GPTQ/AWQ and MLX {@code .scales} (MLX's {@code .biases} too), FP8 checkpoints'
     * {@code weight_scale} / {@code input_scale} ({@code [out, 1]} per channel) and block-wise
     * {@code weight_scale_inv} (DeepSeek-V3's and Qwen3's FP8: one fp32 per 128x128 block).
     */
    private static boolean isQuantizationParameter(String name) {
        return name.endsWith(".scales") || name.endsWith(".biases") || name.endsWith("_scale") || name.endsWith(".scale")
                || name.endsWith("_scale_inv");
    }

    /** A bias ({@code fc.bias}, gpt-oss's {@code gate_up_proj_bias} [E, 2F]): added, never multiplied. */
    private static boolean isBias(String name) {
        return name.endsWith(".bias") || name.endsWith("_bias");
    }

    /**
     * Convolution above rank 2; a gather for an embedding table ({@code embed} in the name, GPT-2's
     * {@code wte} and {@code wpe}, T5's shared vocabulary and its {@code relative_attention_bias}, an
     * {@code nn.Embedding} of position buckets looked up, never multiplied).
     */
    private static LayerKind kindOf(String name, int rank) {
        String lower = name.toLowerCase(Locale.ROOT);
        boolean table = lower.contains("embed") || lower.endsWith("wpe.weight") || lower.endsWith("wte.weight")
                || lower.equals("shared.weight") || lower.endsWith(".shared.weight") // T5's and BART's shared vocabulary table
                || lower.endsWith("relative_attention_bias.weight");
        return rank > 2 ? LayerKind.CONV : table ? LayerKind.EMBEDDING_GATHER : LayerKind.LINEAR;
    }
}
