package dev.sparseprof.model;

import dev.sparseprof.util.DType;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A tiny LLaMA-shaped Hugging Face folder written by the tests: config.json (hidden 8, FFN 16,
 * 4 heads, 2 KV heads, 2 blocks, vocabulary 10), bf16 weights with every other element zero in the
 * block linears, two safetensors shards and model.safetensors.index.json.
 */
public final class HfFixtures {
    public static final int HIDDEN = 8;
    public static final int FFN = 16;
    public static final int KV_ROWS = 4;
    public static final int BLOCKS = 2;
    public static final int VOCAB = 10;

    private HfFixtures() {}

    /** name -> [rows, cols] in save_pretrained order. */
    public static Map<String, long[]> shapes() {
        Map<String, long[]> m = new LinkedHashMap<>();
        m.put("model.embed_tokens.weight", new long[] {VOCAB, HIDDEN});
        for (int b = 0; b < BLOCKS; b++) {
            String p = "model.layers." + b + ".";
            m.put(p + "self_attn.q_proj.weight", new long[] {HIDDEN, HIDDEN});
            m.put(p + "self_attn.k_proj.weight", new long[] {KV_ROWS, HIDDEN});
            m.put(p + "self_attn.v_proj.weight", new long[] {KV_ROWS, HIDDEN});
            m.put(p + "self_attn.o_proj.weight", new long[] {HIDDEN, HIDDEN});
            m.put(p + "mlp.gate_proj.weight", new long[] {FFN, HIDDEN});
            m.put(p + "mlp.up_proj.weight", new long[] {FFN, HIDDEN});
            m.put(p + "mlp.down_proj.weight", new long[] {HIDDEN, FFN});
            m.put(p + "input_layernorm.weight", new long[] {HIDDEN});
        }
        m.put("model.norm.weight", new long[] {HIDDEN});
        m.put("lm_head.weight", new long[] {VOCAB, HIDDEN});
        return m;
    }

    /** A bf16 tensor: block linears have every other element zero, everything else is non-zero. */
    public static Tensor tensor(String name, long[] shape) {
        long n = 1;
        for (long d : shape) n *= d;
        short[] bits = new short[(int) n];
        SplittableRandom rnd = new SplittableRandom(name.hashCode());
        boolean sparse = name.contains(".layers.") && shape.length == 2;
        for (int i = 0; i < bits.length; i++) {
            bits[i] = sparse && i % 2 == 1 ? 0 : (short) (0x3c00 | rnd.nextInt(0x80) | (rnd.nextBoolean() ? 0x8000 : 0));
        }
        MemorySegment seg = MemorySegment.ofArray(new byte[bits.length * 2]);
        MemorySegment.copy(bits, 0, seg, LittleEndian.I16, 0, bits.length);
        return new Tensor(name, DType.BF16, shape, seg);
    }

    /** Writes the folder; the first shard holds the embeddings and block 0, the second the rest. */
    public static Path write(Path folder) throws IOException {
        Files.createDirectories(folder);
        List<Tensor> first = new ArrayList<>();
        List<Tensor> second = new ArrayList<>();
        StringBuilder map = new StringBuilder();
        for (Map.Entry<String, long[]> e : shapes().entrySet()) {
            boolean one = e.getKey().startsWith("model.embed") || e.getKey().startsWith("model.layers.0.");
            (one ? first : second).add(tensor(e.getKey(), e.getValue()));
            if (!map.isEmpty()) map.append(",\n");
            map.append("    \"").append(e.getKey()).append("\": \"model-0000").append(one ? 1 : 2).append("-of-00002.safetensors\"");
        }
        SafetensorsWriter.write(folder.resolve("model-00001-of-00002.safetensors"), first, Map.of("format", "pt"));
        SafetensorsWriter.write(folder.resolve("model-00002-of-00002.safetensors"), second, Map.of("format", "pt"));
        Files.writeString(folder.resolve("model.safetensors.index.json"),
                "{\n  \"metadata\": {\"total_size\": 1234},\n  \"weight_map\": {\n" + map + "\n  }\n}\n");
        Files.writeString(folder.resolve("config.json"), config(BLOCKS));
        return folder;
    }

    public static String config(int blocks) {
        return "{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": " + HIDDEN
                + ", \"intermediate_size\": " + FFN + ", \"num_attention_heads\": 4, \"num_key_value_heads\": 2, "
                + "\"num_hidden_layers\": " + blocks + ", \"vocab_size\": " + VOCAB + ", \"torch_dtype\": \"bfloat16\"}\n";
    }

    /** GPT-2's projection shapes at {@link #HIDDEN}, one block, as transformers' Conv1D stores them: {@code [in, out]}. */
    public static Map<String, long[]> gpt2Shapes() {
        Map<String, long[]> m = new LinkedHashMap<>();
        m.put("transformer.wte.weight", new long[] {VOCAB, HIDDEN});
        m.put("transformer.wpe.weight", new long[] {16, HIDDEN});
        m.put("transformer.h.0.attn.c_attn.weight", new long[] {HIDDEN, 3 * HIDDEN});
        m.put("transformer.h.0.attn.c_proj.weight", new long[] {HIDDEN, HIDDEN});
        m.put("transformer.h.0.mlp.c_fc.weight", new long[] {HIDDEN, FFN});
        m.put("transformer.h.0.mlp.c_proj.weight", new long[] {FFN, HIDDEN});
        return m;
    }

    /**
     * A one-file folder of {@link #gpt2Shapes} in fp32, element i of each tensor {@code i + 1} (no
     * zeros), with a config.json of {@code modelType} ({@code gpt2}, or {@code gpt_bigcode} whose
     * same-named projections are {@code nn.Linear}).
     */
    public static Path writeGpt2(Path folder, String modelType) throws IOException {
        Files.createDirectories(folder);
        List<Tensor> tensors = new ArrayList<>();
        for (Map.Entry<String, long[]> e : gpt2Shapes().entrySet()) {
            float[] v = new float[(int) (e.getValue()[0] * e.getValue()[1])];
            for (int i = 0; i < v.length; i++) v[i] = i + 1;
            tensors.add(Tensor.ofFloats(e.getKey(), e.getValue(), v));
        }
        SafetensorsWriter.write(folder.resolve("model.safetensors"), tensors, Map.of("format", "pt"));
        Files.writeString(folder.resolve("config.json"), "{\"model_type\": \"" + modelType + "\", \"n_embd\": " + HIDDEN
                + ", \"n_inner\": " + FFN + ", \"n_head\": 2, \"n_layer\": 1, \"vocab_size\": " + VOCAB + "}\n");
        return folder;
    }
}
