package dev.sparseprof.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Labels layers from their parameter names, in the spellings of the common checkpoint families:
 * LLaMA/Mistral/Qwen ({@code model.layers.N.self_attn.q_proj}, {@code mlp.gate_proj}), Meta's
 * LLaMA ({@code layers.N.attention.wq}, {@code feed_forward.w1}), Mixtral
 * ({@code block_sparse_moe.experts.E.w1/w2/w3}, router {@code block_sparse_moe.gate}), GPT-2
 * ({@code h.N.attn.c_attn}, {@code mlp.c_fc}), BERT ({@code encoder.layer.N.attention.self.query},
 * {@code intermediate.dense}, {@code output.dense}), OPT/GPT-NeoX ({@code fc1}, {@code query_key_value}),
 * and GGUF's llama.cpp names ({@code blk.N.attn_q}, {@code ffn_gate}, {@code token_embd}, {@code output}).
 * w1/w3/w2 are gate/up/down as in LLaMA's and Mixtral's SwiGLU FFN.
 *
 * <p>With {@link HfConfig} facts the shapes are checked for the role (PyTorch order
 * {@code [out, in]}): q {@code [heads·headDim, hidden]}, k and v {@code [kvHeads·headDim, hidden]},
 * o {@code [hidden, heads·headDim]}, gate and up {@code [ffn, hidden]}, down {@code [hidden, ffn]}
 * (ffn = the expert FFN width for experts when the config gives one; GGUF's stacked
 * {@code ffn_*_exps} hold every expert's rows), block below the block
 * count, expert below the expert count; a disagreement is recorded in the label, not hidden.
 */
public final class LayerLabels {
    private static final Pattern BLOCK = Pattern.compile("(?:^|\\.)(?:layers|layer|h|blocks|block|blk)\\.(\\d{1,9})\\.");
    private static final Pattern EXPERT = Pattern.compile("(?:^|\\.)experts\\.(\\d{1,9})\\.");

    private LayerLabels() {}

    /** One label per layer of {@code model}, in layer order. */
    public static List<LayerLabel> of(Model model) {
        HfConfig config = HfConfig.of(model);
        List<LayerLabel> out = new ArrayList<>(model.layers().size());
        for (GemmLayer l : model.layers()) {
            LayerLabel label = of(l.tensorName(), l.rows(), l.cols(), config);
            // an embedding's matrix multiplied as a GEMM is the output projection tied to it (TensorLayers)
            if (label.role().equals("embed") && l.kind() == LayerKind.LINEAR) label = of(l.name(), l.rows(), l.cols(), config);
            out.add(label);
        }
        return out;
    }

    /**
     * Whether the weight named {@code name} belongs to a mixture of experts' routed experts: one
     * expert's ({@code experts.3.w1}, {@code experts.3.down_proj}), or all of them stacked (GGUF's
     * {@code ffn_up_exps}, transformers' fused {@code experts.gate_up_proj}); not the router, not a
     * shared expert.
     */
    public static boolean isRoutedExpert(String name) {
        String n = stem(name);
        return index(EXPERT, n) >= 0 || n.endsWith("_exps") || FUSED_EXPERTS.matcher(n).find();
    }

    private static final Pattern FUSED_EXPERTS = Pattern.compile("(?:^|\\.)experts\\.[a-z_]+$");

    /** {@code name} in lower case without its {@code .weight} suffix or an MXFP4 weight's {@code _blocks}. */
    private static String stem(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".weight")) n = n.substring(0, n.length() - ".weight".length());
        if (n.endsWith("_blocks")) n = n.substring(0, n.length() - "_blocks".length()); // an MXFP4 weight's codes
        return n;
    }

    /** The label of a weight {@code rows x cols} named {@code name}; {@code config} may be null. */
    public static LayerLabel of(String name, long rows, long cols, HfConfig config) {
        String n = stem(name);
        int block = index(BLOCK, n);
        int expert = index(EXPERT, n);
        String role = role(n, block >= 0);
        if (role.isEmpty() && block < 0) return LayerLabel.NONE;
        boolean stacked = expert < 0 && isRoutedExpert(n); // GGUF's ffn_*_exps, transformers' fused experts.gate_up_proj
        return new LayerLabel(block, role, expert, config == null ? null : disagreement(role, block, expert, rows, cols, config, stacked));
    }

    private static int index(Pattern p, String name) {
        Matcher m = p.matcher(name);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    private static String role(String n, boolean inBlock) {
        int dot = n.lastIndexOf('.');
        String last = n.substring(dot + 1);
        String parent = dot < 0 ? "" : n.substring(0, dot);
        boolean attention = parent.contains("attn") || parent.contains("attention");
        switch (last) {
            case "q_proj", "query", "wq", "to_q", "q_lin", "attn_q" -> { return "q"; }
            case "k_proj", "key", "wk", "to_k", "k_lin", "attn_k" -> { return "k"; }
            case "v_proj", "value", "wv", "to_v", "v_lin", "attn_v" -> { return "v"; }
            case "attn_output" -> { return "o"; }
            case "attn_qkv" -> { return "qkv"; }
            case "ffn_gate", "ffn_gate_exps" -> { return "gate"; }
            case "ffn_up", "ffn_up_exps" -> { return "up"; }
            case "ffn_down", "ffn_down_exps" -> { return "down"; }
            case "ffn_gate_inp" -> { return "router"; }
            case "token_embd" -> { return "embed"; }
            case "o_proj", "out_proj", "wo", "to_out", "out_lin" -> { return attention || !parent.contains("mlp") ? "o" : "down"; }
            case "qkv_proj", "c_attn", "query_key_value", "wqkv", "qkv" -> { return "qkv"; }
            case "gate_proj", "w1" -> { return "gate"; }
            case "gate_up_proj" -> { return "gate_up"; }
            case "up_proj", "w3", "fc1", "c_fc", "fc_in", "dense_h_to_4h" -> { return "up"; }
            case "down_proj", "w2", "fc2", "fc_out", "dense_4h_to_h" -> { return "down"; }
            case "c_proj" -> { return attention ? "o" : "down"; }
            case "gate", "router" -> { return parent.contains("moe") || parent.endsWith("mlp") || parent.endsWith("feed_forward") ? "router" : ""; }
            case "embed_tokens", "wte", "word_embeddings", "tok_embeddings", "embed_in" -> { return "embed"; }
            case "lm_head", "embed_out" -> { return "head"; }
            case "dense" -> {
                if (parent.endsWith("attention.output")) return "o";
                if (parent.endsWith("intermediate")) return "up";
                if (parent.endsWith("output")) return "down";
                return attention ? "o" : "";
            }
            default -> {
                return !inBlock && n.equals("output") ? "head" : "";
            }
        }
    }

    private static String disagreement(String role, int block, int expert, long rows, long cols, HfConfig c, boolean stacked) {
        if (block >= 0 && c.blocks() > 0 && block >= c.blocks()) return "block " + block + " of " + c.blocks();
        if (expert >= 0 && c.experts() > 0 && expert >= c.experts()) return "expert " + expert + " of " + c.experts();
        long hidden = c.hiddenSize();
        long ffn = (expert >= 0 || stacked) && c.expertIntermediateSize() > 0 ? c.expertIntermediateSize() : c.intermediateSize();
        if (stacked && c.experts() > 0) {
            if (rows % c.experts() != 0) return rows + " rows are not " + c.experts() + " experts' worth";
            rows /= c.experts(); // GGUF's ffn_*_exps: every expert's rows in one tensor
        }
        return switch (role) {
            case "q" -> shape(rows, cols, c.qRows(), hidden);
            case "k", "v" -> shape(rows, cols, c.kvRows(), hidden);
            case "o" -> shape(rows, cols, hidden, c.qRows());
            case "qkv" -> shape(rows, cols, c.qRows() + 2 * c.kvRows(), hidden);
            case "gate", "up" -> shape(rows, cols, ffn, hidden);
            case "gate_up" -> shape(rows, cols, 2 * ffn, hidden);
            case "down" -> shape(rows, cols, hidden, ffn);
            default -> null;
        };
    }

    /** Null when {@code rows x cols} is {@code wantRows x wantCols}, a fact of 0 matching anything. */
    private static String shape(long rows, long cols, long wantRows, long wantCols) {
        boolean ok = (wantRows <= 0 || rows == wantRows) && (wantCols <= 0 || cols == wantCols);
        return ok ? null : "shape " + rows + "x" + cols + ", config.json gives " + (wantRows > 0 ? wantRows : "?") + "x"
                + (wantCols > 0 ? wantCols : "?");
    }
}
