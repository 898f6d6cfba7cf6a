package dev.sparseprof.cli;

import static dev.sparseprof.cli.ModelCommandsTest.layers;
import static dev.sparseprof.cli.ModelCommandsTest.map;
import static dev.sparseprof.cli.ModelCommandsTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.cli.ModelCommandsTest.Result;
import dev.sparseprof.model.GgufFixtures;
import dev.sparseprof.model.HfFixtures;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** profile of checkpoints: a Hugging Face folder grouped per block, its refusals. */
class ProfileCheckpointTest {
    @TempDir Path dir;

    @Test
    void aHuggingFaceFolderIsProfiledPerBlockWithItsParameterNames() throws IOException {
        Path folder = HfFixtures.write(dir.resolve("llama"));
        Result r = run("profile", folder.toString());
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().split("\n");
        int q0 = -1;
        int down1 = -1;
        for (int i = 0; i < lines.length; i++) {
            assertTrue(!lines[i].contains("model.layers."), "short names in the table: " + lines[i]);
            if (lines[i].startsWith("b0 q ")) q0 = i;
            if (lines[i].startsWith("b1 down ")) down1 = i;
        }
        assertTrue(q0 > 0 && down1 > q0, r.out());
        assertTrue(lines[q0 + 1].startsWith("b0 k "), "roles in order within a block");
        assertTrue(r.out().contains("50.0%"), "block linears are half zeros");
        Map<String, Object> json = Json.parseObject(run("profile", folder.toString(), "--json", "-").out());
        List<Map<String, Object>> l = layers(json);
        assertEquals(16, l.size());
        Map<String, Object> q = l.stream().filter(x -> x.get("name").equals("model.layers.1.self_attn.q_proj.weight")).findFirst().orElseThrow();
        assertEquals(1L, map(q.get("label")).get("block"));
        assertEquals("q", map(q.get("label")).get("role"));
        assertEquals(0.5, (Double) q.get("sparsity"), 1e-12);
    }

    @Test
    void gpt2PrunedTwoFourKeepsTwoOfEveryFourInputsOfEachOutputInItsConv1dLayout() throws IOException {
        Path folder = HfFixtures.writeGpt2(dir.resolve("gpt2"), "gpt2");
        Path out = dir.resolve("gpt2-24");
        Result r = run("prune", folder.toString(), "--nm", "2:4", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        try (Model m = Models.open(out)) {
            for (Tensor t : m.tensors()) {
                if (!t.name().startsWith("transformer.h.")) continue;
                long in = t.dim(0);
                long outs = t.dim(1);
                for (long o = 0; o < outs; o++) { // stored [in, out]: one output's inputs run down a column
                    for (long g = 0; g < in; g += 4) {
                        int kept = 0;
                        for (long i = g; i < g + 4; i++) kept += t.isZero(i * outs + o) ? 0 : 1;
                        assertEquals(2, kept, t.name() + " output " + o + " inputs " + g + "..");
                    }
                }
            }
        }
    }

    @Test
    void routedExpertsShowTheirShareOfTheTokensInTheJson() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("moe"));
        SafetensorsWriter.write(folder.resolve("model.safetensors"), List.of(
                HfFixtures.tensor("model.layers.0.mlp.experts.1.up_proj.weight", new long[] {HfFixtures.FFN, HfFixtures.HIDDEN}),
                HfFixtures.tensor("model.layers.0.self_attn.q_proj.weight", new long[] {HfFixtures.HIDDEN, HfFixtures.HIDDEN})), Map.of());
        Files.writeString(folder.resolve("config.json"), "{\"model_type\": \"mixtral\", \"hidden_size\": " + HfFixtures.HIDDEN
                + ", \"num_hidden_layers\": 1, \"num_local_experts\": 8, \"num_experts_per_tok\": 2}");
        Map<String, Object> json = Json.parseObject(run("profile", folder.toString(), "--json", "-").out());
        Map<String, Object> expert = layers(json).stream().filter(l -> String.valueOf(l.get("name")).contains("experts")).findFirst().orElseThrow();
        assertEquals(0.25, ((Number) expert.get("tokenShare")).doubleValue());
        assertEquals(32L, ((Number) expert.get("denseColumns")).longValue(), "128 tokens, 2 of 8 experts each");
        assertTrue(String.valueOf(map(json.get("model")).get("readAs")).contains("routed expert layers multiply 2 of 8"));
    }

    @Test
    void aLyingIndexIsOneLineAndExitTwo() throws IOException {
        Path folder = HfFixtures.write(dir.resolve("llama"));
        Path index = folder.resolve("model.safetensors.index.json");
        Files.writeString(index, Files.readString(index).replace("model-00002-of-00002.safetensors", "../../etc/passwd"));
        Result r = run("profile", folder.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("refusing file reference '../../etc/passwd'"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
    }

    @Test
    void aGgufNamesTheTypesItLeftOutOfTheNumbers() throws IOException {
        Path file = dir.resolve("tiny.gguf");
        Files.write(file, GgufFixtures.llama());
        Result r = run("profile", file.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("note: 1 tensor of a quantization type not decoded, left out of the layers: 1 x IQ2_XXS (first: blk.0.ffn_up.weight)"), r.out());
        assertTrue(r.out().contains("b0 down "), r.out());
    }

    /** formats and profile say what a quantized file weighs as stored, beside its dense and sparse costs in the value type. */
    @Test
    void formatsSaysWhatAnEncodedFileWeighs() {
        String folder = Path.of("src/test/resources/packed/gptq-act-order").toString();
        Result r = run("formats", folder);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("as stored in the file: 4.63 KiB, 4.63 bits per weight with their scales; dense fp16 / stored = 3.46x"), r.out());
        assertTrue(run("profile", folder).out().contains("weights as stored: 4.63 KiB, 4.63 bits per weight with their scales"), "profile says it too");
        assertTrue(!run("profile").out().contains("weights as stored"), "not for a model stored as plain values");
        Map<String, Object> totals = map(Json.parseObject(run("formats", folder, "--json", "-").out()).get("totals"));
        assertEquals(8192 * 4.625 / 8, ((Number) totals.get("storedBytes")).doubleValue(), 1e-9, totals.toString());
        assertTrue(!run("formats").out().contains("as stored in the file"), "MiniLM's fp32 is its own dense fp32: nothing to add");
    }

    @Test
    void aGptqCheckpointIsDecodedAndAnUnknownIntegerWeightIsNamedAsLeftOut() {
        // AutoGPTQ's layout: int32 qweight [K/8, N] and qzeros, fp16 scales; the head stays fp16; an int8
        // weight of no known scheme beside them
        MemorySegment i32 = MemorySegment.ofArray(new byte[8 * 64 * 4]);
        List<Tensor> tensors = List.of(
                new Tensor("model.layers.0.self_attn.q_proj.qweight", DType.I32, new long[] {8, 64}, i32),
                new Tensor("model.layers.0.self_attn.q_proj.qzeros", DType.I32, new long[] {1, 8},
                        MemorySegment.ofArray(new byte[32])),
                Tensor.ofFloats("model.layers.0.self_attn.q_proj.scales", new long[] {1, 64}, new float[64]),
                new Tensor("model.layers.0.mlp.up_proj.weight", DType.I8, new long[] {4, 64},
                        MemorySegment.ofArray(new byte[256])),
                // HQQ's packed codes: no "weight" in the name, still named as left out
                new Tensor("model.layers.0.mlp.down_proj.W_q", DType.U8, new long[] {32, 64},
                        MemorySegment.ofArray(new byte[32 * 64])),
                Tensor.ofFloats("lm_head.weight", new long[] {4, 64}, new float[256]));
        Path file = dir.resolve("gptq.safetensors");
        SafetensorsWriter.write(file, tensors, Map.of());
        Result r = run("profile", file.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("note: 2 integer weight tensors (packed or quantized codes without the scales a decoder needs: int8, uint32, MXFP4 _blocks) not decoded, "
                + "left out of the layers: model.layers.0.mlp.up_proj.weight i8, model.layers.0.mlp.down_proj.W_q u8"), r.out());
        Map<String, Object> gptq = layers(Json.parseObject(run("profile", file.toString(), "--json", "-").out())).stream()
                .filter(l -> String.valueOf(l.get("name")).equals("model.layers.0.self_attn.q_proj.weight")).findFirst().orElseThrow();
        assertEquals("fp16", gptq.get("storedDType"), "fp32 scales: a W4A16 kernel multiplies in fp16");
        assertEquals(4 + 32.0 / 64 + 4.0 / 64, ((Number) gptq.get("storedBitsPerWeight")).doubleValue(), 1e-12, "codes, one fp32 scale and a 4-bit zero per 64 inputs");
        Map<String, Object> model = map(Json.parseObject(run("profile", file.toString(), "--json", "-").out()).get("model"));
        assertTrue(String.valueOf(model.get("leftOut")).contains("up_proj.weight i8"), "scripts see it too: " + model);
        assertTrue(layers(Json.parseObject(run("profile", file.toString(), "--json", "-").out())).stream()
                .noneMatch(l -> String.valueOf(l.get("name")).endsWith(".scales")), "the fp16 scales are no layer");
        // DeepSeek-V3's block-wise FP8: an fp8 weight and its fp32 weight_scale_inv, one per 128x128 block
        Path fp8 = dir.resolve("fp8.safetensors");
        SafetensorsWriter.write(fp8, List.of(
                new Tensor("model.layers.0.mlp.up_proj.weight", DType.F8_E4M3, new long[] {256, 256},
                        MemorySegment.ofArray(new byte[256 * 256])),
                Tensor.ofFloats("model.layers.0.mlp.up_proj.weight_scale_inv", new long[] {2, 2}, new float[] {1, 1, 1, 1})), Map.of());
        assertEquals(List.of("model.layers.0.mlp.up_proj.weight"),
                layers(Json.parseObject(run("profile", fp8.toString(), "--json", "-").out())).stream().map(l -> l.get("name")).toList());
    }

    @Test
    void anMlxCheckpointIsDecodedAndPruneRefusesItsPackedWeights() throws IOException {
        // MLX's 4-bit layout: U32 weight [out, in/8], fp16 scales and biases [out, in/64]
        String header = "{\"model.layers.0.mlp.up_proj.weight\":{\"dtype\":\"U32\",\"shape\":[8,8],\"data_offsets\":[0,256]},"
                + "\"model.layers.0.mlp.up_proj.scales\":{\"dtype\":\"F16\",\"shape\":[8,1],\"data_offsets\":[256,272]},"
                + "\"model.layers.0.mlp.up_proj.biases\":{\"dtype\":\"F16\",\"shape\":[8,1],\"data_offsets\":[272,288]},"
                + "\"lm_head.weight\":{\"dtype\":\"F32\",\"shape\":[4,8],\"data_offsets\":[288,416]}}";
        Path file = dir.resolve("mlx.safetensors");
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + h.length + 416).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(h.length).put(h);
        Files.write(file, b.array());
        Result r = run("profile", file.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> json = Json.parseObject(r.out());
        assertEquals(List.of("lm_head.weight", "model.layers.0.mlp.up_proj.weight"), layers(json).stream().map(l -> l.get("name")).toList(),
                "8 words of 4-bit codes in one group of 64 (MLX's default group size): an 8 x 64 layer");
        assertEquals(null, map(json.get("model")).get("leftOut"), r.out());
        Result p = run("prune", file.toString(), "--sparsity", "0.5", "--out", dir.resolve("p.safetensors").toString());
        assertEquals(2, p.code());
        assertTrue(p.err().contains("layer 'model.layers.0.mlp.up_proj.weight' is stored encoded"), p.err());
        assertTrue(Files.notExists(dir.resolve("p.safetensors")));
    }
}
