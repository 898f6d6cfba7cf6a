package dev.sparseprof.model;

import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The architecture facts of a Hugging Face {@code config.json}: hidden size, blocks, attention
 * heads, KV heads, head size, FFN width, experts. Each has the spellings transformers' configs
 * use (LLaMA/Mistral/Qwen {@code hidden_size}, GPT-2 {@code n_embd}, OPT {@code ffn_dim}, Mixtral
 * {@code num_local_experts}, Qwen-MoE {@code num_experts}, DeepSeek {@code n_routed_experts}); a
 * multimodal config's {@code text_config} is read when the top level has no hidden size.
 *
 * <p>A fact is absent (0) when the config does not give it; a value that is not a positive integer
 * below 2^31 is an error naming the key. KV heads default to the heads, head size to hidden / heads.
 *
 * @param modelType {@code model_type}, or empty
 */
public record HfConfig(String modelType, int hiddenSize, int blocks, int heads, int kvHeads, int headDim,
                       int intermediateSize, int experts, int expertIntermediateSize) {
    static final long MAX_CONFIG_BYTES = 10_000_000L;
    private static final String PREFIX = "config.";
    /** transformers' flag for an output projection that is the input embedding's matrix (PretrainedConfig's default: true). */
    static final String TIE = "tie_word_embeddings";

    public HfConfig {
        if (hiddenSize < 0 || blocks < 0 || heads < 0 || kvHeads < 0 || headDim < 0 || intermediateSize < 0 || experts < 0
                || expertIntermediateSize < 0) {
            throw new IllegalArgumentException("negative architecture fact");
        }
    }

    /** The facts stored in a model's metadata by a reader (keys {@code config.*}), or null when there are none. */
    public static HfConfig of(Model model) {
        Map<String, String> m = model.metadata();
        if (!m.containsKey(PREFIX + "hidden_size")) return null;
        return new HfConfig(m.getOrDefault(PREFIX + "model_type", ""), get(m, "hidden_size"), get(m, "num_hidden_layers"),
                get(m, "num_attention_heads"), get(m, "num_key_value_heads"), get(m, "head_dim"), get(m, "intermediate_size"),
                get(m, "experts"), get(m, "expert_intermediate_size"));
    }

    private static int get(Map<String, String> m, String key) {
        return fact(m, PREFIX + key);
    }

    /**
     * The integer fact {@code key} of a model's metadata ({@code config.} and the config's key, as the
     * readers put them): 0 where absent, negative or not an integer below 2^31, since a file's own
     * metadata (safetensors' {@code __metadata__}) may use the same name for anything.
     */
    static int fact(Map<String, String> metadata, String key) {
        try {
            return Math.max(0, Integer.parseInt(metadata.getOrDefault(key, "0")));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Rows of a K or V projection: KV heads x head size (0 when unknown). */
    public long kvRows() {
        return (long) kvHeads * headDim;
    }

    /** Rows of a Q projection: heads x head size (0 when unknown). */
    public long qRows() {
        return (long) heads * headDim;
    }

    /** A config file's JSON object (10 MB at most), or one line naming the fault. */
    private static Map<String, Object> parse(Path config) {
        long size = ModelFiles.size(config);
        if (size > MAX_CONFIG_BYTES) throw ModelFormatException.in(config, size + " bytes is over the 10 MB limit of a config");
        try {
            return Json.parseObject(Files.readString(config, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw ModelFormatException.in(config, "cannot read (" + e.getMessage() + ")");
        } catch (SparseprofException e) {
            throw ModelFormatException.in(config, e.getMessage());
        }
    }

    /** Reads {@code config} (a missing file gives no facts) into {@code config.*} metadata. */
    static Map<String, String> metadata(Path config) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(config)) return out;
        Map<String, Object> json = parse(config);
        out.putAll(quantization(json));
        Map<String, Object> c = json;
        if (first(c, config, "hidden_size", "n_embd", "d_model") == 0 && c.get("text_config") instanceof Map<?, ?> text) {
            @SuppressWarnings("unchecked")
            Map<String, Object> t = (Map<String, Object>) text;
            c = t;
        }
        int hidden = first(c, config, "hidden_size", "n_embd", "d_model");
        if (hidden == 0) return out;
        int heads = first(c, config, "num_attention_heads", "n_head", "num_heads");
        int kv = first(c, config, "num_key_value_heads", "num_kv_heads", "n_head_kv");
        int headDim = first(c, config, "head_dim");
        if (kv == 0) kv = heads;
        if (headDim == 0 && heads > 0) {
            if (hidden % heads != 0) throw ModelFormatException.in(config, "hidden size " + hidden + " is not a multiple of " + heads + " heads");
            headDim = hidden / heads;
        }
        if (heads > 0 && kv > heads) throw ModelFormatException.in(config, kv + " KV heads are more than the " + heads + " attention heads");
        Object type = c.get("model_type") != null ? c.get("model_type") : json.get("model_type");
        if (type instanceof String s) out.put(PREFIX + "model_type", s);
        out.put(PREFIX + "hidden_size", Integer.toString(hidden));
        out.put(PREFIX + "num_hidden_layers", Integer.toString(first(c, config, "num_hidden_layers", "n_layer", "num_layers")));
        out.put(PREFIX + "num_attention_heads", Integer.toString(heads));
        out.put(PREFIX + "num_key_value_heads", Integer.toString(kv));
        out.put(PREFIX + "head_dim", Integer.toString(headDim));
        out.put(PREFIX + "intermediate_size", Integer.toString(first(c, config, "intermediate_size", "n_inner", "ffn_dim")));
        out.put(PREFIX + "experts", Integer.toString(first(c, config, "num_local_experts", "num_experts", "n_routed_experts")));
        out.put(PREFIX + "experts_per_token", Integer.toString(first(c, config, "num_experts_per_tok", "experts_per_token")));
        out.put(PREFIX + "expert_intermediate_size", Integer.toString(first(c, config, "moe_intermediate_size")));
        int vocab = first(c, config, "vocab_size", "n_vocab");
        if (vocab > 0) out.put(PREFIX + "vocab_size", Integer.toString(vocab));
        Object tie = c.get(TIE) != null ? c.get(TIE) : json.get(TIE);
        if (tie instanceof Boolean b) out.put(PREFIX + TIE, b.toString());
        if (json.get("architectures") instanceof List<?> architectures) {
            out.put(PREFIX + "architectures", String.join(",", architectures.stream().filter(String.class::isInstance).map(String.class::cast).toList()));
        }
        return out;
    }

    /**
     * Meta's {@code params.json} (the original Llama and Mistral releases, beside
     * {@code consolidated.00.pth} or {@code consolidated.safetensors}) as the same {@code config.*}
     * facts: {@code dim}, {@code n_layers}, {@code n_heads}, {@code n_kv_heads}, {@code head_dim},
     * {@code vocab_size} (Llama 1 writes -1: left out), {@code hidden_dim} or Meta's FFN width rule
     * ({@code 2/3 of 4·dim}, times {@code ffn_dim_multiplier}, rounded up to {@code multiple_of}:
     * {@code llama/model.py}), and {@code moe.num_experts} / {@code num_experts_per_tok}. A missing
     * file gives no facts.
     */
    static Map<String, String> metaParams(Path params) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.isRegularFile(params)) return out;
        Map<String, Object> p = parse(params);
        int dim = first(p, params, "dim");
        if (dim == 0) return out;
        int heads = first(p, params, "n_heads");
        int kv = first(p, params, "n_kv_heads");
        int headDim = first(p, params, "head_dim");
        int ffn = first(p, params, "hidden_dim");
        if (ffn == 0) {
            long width = 2 * (4L * dim) / 3;
            if (p.get("ffn_dim_multiplier") instanceof Number m) width = (long) (m.doubleValue() * width);
            int multiple = first(p, params, "multiple_of");
            if (multiple > 0) width = (width + multiple - 1) / multiple * multiple;
            ffn = (int) Math.max(0, Math.min(Integer.MAX_VALUE, width)); // a negative multiplier gives no fact
        }
        Map<String, Object> moe = p.get("moe") instanceof Map<?, ?> m ? cast(m) : Map.of();
        out.put(PREFIX + "model_type", "llama");
        out.put(PREFIX + "hidden_size", Integer.toString(dim));
        out.put(PREFIX + "num_hidden_layers", Integer.toString(first(p, params, "n_layers")));
        out.put(PREFIX + "num_attention_heads", Integer.toString(heads));
        out.put(PREFIX + "num_key_value_heads", Integer.toString(kv > 0 ? kv : heads));
        out.put(PREFIX + "head_dim", Integer.toString(headDim > 0 ? headDim : heads > 0 ? dim / heads : 0));
        out.put(PREFIX + "intermediate_size", Integer.toString(ffn));
        out.put(PREFIX + "experts", Integer.toString(first(moe, params, "num_experts")));
        out.put(PREFIX + "experts_per_token", Integer.toString(first(moe, params, "num_experts_per_tok")));
        out.put(PREFIX + "expert_intermediate_size", "0");
        if (p.get("vocab_size") instanceof Long v && v > 0 && v <= Integer.MAX_VALUE) out.put(PREFIX + "vocab_size", Long.toString(v));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }

    /**
     * The facts of {@code quantization_config} (or compressed-tensors' older {@code compression_config}, or
     * mlx-lm's {@code quantization})
     * that the packed-weight readers need ({@link PackedIntMatrix}): the method, the weights' bits
     * and group size (GPTQ's and AWQ's {@code bits} and {@code group_size}, compressed-tensors' first config
     * group's {@code weights.num_bits} and {@code weights.group_size}),
     * GPTQModel's {@code checkpoint_format} and AutoAWQ's {@code version}. Values of other types are ignored.
     */
    private static Map<String, String> quantization(Map<String, Object> json) {
        Map<String, String> out = new LinkedHashMap<>();
        Object q = json.get("quantization_config") != null ? json.get("quantization_config")
                : json.get("compression_config") != null ? json.get("compression_config") : json.get("quantization"); // mlx-lm's
        if (!(q instanceof Map<?, ?> quant)) return out;
        if (quant.get("quant_method") instanceof String method) out.put(PackedIntMatrix.QUANT_METHOD, method);
        Object bits = quant.get("bits");
        Object groupSize = quant.get("group_size");
        if (bits == null && quant.get("config_groups") instanceof Map<?, ?> groups && !groups.isEmpty()
                && groups.values().iterator().next() instanceof Map<?, ?> group && group.get("weights") instanceof Map<?, ?> weights) {
            bits = weights.get("num_bits");
            groupSize = weights.get("group_size");
        }
        if (bits instanceof Long b && b > 0 && b <= 32) out.put(PackedIntMatrix.QUANT_BITS, b.toString());
        if (groupSize instanceof Long g && g > 0 && g <= Integer.MAX_VALUE) out.put(PackedIntMatrix.QUANT_GROUP, g.toString());
        if (quant.get("checkpoint_format") instanceof String format) out.put(PackedIntMatrix.QUANT_FORMAT, format);
        if (quant.get("version") instanceof String version) out.put(PackedIntMatrix.QUANT_VERSION, version);
        return out;
    }

    /** The first of {@code keys} the config gives, as a positive int; 0 when none is given (or null). */
    private static int first(Map<String, Object> c, Path config, String... keys) {
        for (String k : List.of(keys)) {
            Object v = c.get(k);
            if (v == null) continue;
            if (!(v instanceof Long n) || n <= 0 || n > Integer.MAX_VALUE) {
                throw ModelFormatException.in(config, k + " is " + v + ", not a positive integer");
            }
            return (int) (long) n;
        }
        return 0;
    }
}
