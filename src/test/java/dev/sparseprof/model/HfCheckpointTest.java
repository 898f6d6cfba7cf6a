package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.DType;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HfCheckpointTest {
    @TempDir Path dir;

    @Test
    void aFolderAndItsIndexGiveTheCheckpointsTensorsUnderTheirOwnNames() throws IOException {
        Path folder = HfFixtures.write(dir.resolve("llama"));
        for (Path arg : List.of(folder, folder.resolve("model.safetensors.index.json"))) {
            try (Model m = Models.open(arg)) {
                assertEquals("hf", m.format());
                assertEquals("2", m.metadata().get("hf.shards"));
                assertEquals("safetensors", m.metadata().get("hf.weights"));
                assertEquals("8", m.metadata().get("config.hidden_size"));
                assertEquals(HfFixtures.shapes().size(), m.tensors().size());
                assertEquals(2 + 7 * HfFixtures.BLOCKS, m.layers().size(), "embeddings, 7 linears per block, lm_head");
                List<String> names = new ArrayList<>();
                for (GemmLayer l : m.layers()) names.add(l.name());
                assertEquals("lm_head.weight", names.get(0));
                assertEquals("model.embed_tokens.weight", names.get(1));
                assertTrue(names.indexOf("model.layers.0.self_attn.q_proj.weight") < names.indexOf("model.layers.1.mlp.up_proj.weight"));
                for (Tensor t : m.tensors()) {
                    Tensor want = HfFixtures.tensor(t.name(), HfFixtures.shapes().get(t.name()));
                    assertArrayEquals(want.data().toArray(ValueLayout.JAVA_BYTE),
                            t.data().toArray(ValueLayout.JAVA_BYTE), t.name());
                }
            }
        }
    }

    @Test
    void configJsonLabelsEveryBlockLinearAndChecksItsShape() throws IOException {
        Path folder = HfFixtures.write(dir.resolve("llama"));
        try (Model m = Models.open(folder)) {
            HfConfig c = HfConfig.of(m);
            assertEquals(new HfConfig("llama", 8, 2, 4, 2, 2, 16, 0, 0), c);
            List<LayerLabel> labels = LayerLabels.of(m);
            Map<String, String> want = Map.of("self_attn.q_proj", "q", "self_attn.k_proj", "k", "self_attn.v_proj", "v",
                    "self_attn.o_proj", "o", "mlp.gate_proj", "gate", "mlp.up_proj", "up", "mlp.down_proj", "down");
            int labelled = 0;
            for (int i = 0; i < labels.size(); i++) {
                String name = m.layers().get(i).name();
                LayerLabel l = labels.get(i);
                assertNull(l.disagreement(), name);
                if (name.startsWith("model.layers.")) {
                    int block = Integer.parseInt(name.split("\\.")[2]);
                    String part = name.substring(("model.layers." + block + ".").length(), name.length() - ".weight".length());
                    assertEquals(new LayerLabel(block, want.get(part), -1, null), l, name);
                    labelled++;
                }
            }
            assertEquals(14, labelled);
            assertEquals("embed", labels.get(1).role());
            assertEquals("head", labels.get(0).role());
        }
        Files.writeString(folder.resolve("config.json"), HfFixtures.config(2).replace("\"intermediate_size\": 16", "\"intermediate_size\": 32"));
        try (Model m = Models.open(folder)) {
            long disagreeing = LayerLabels.of(m).stream().filter(l -> l.disagreement() != null).count();
            assertEquals(6, disagreeing, "gate, up and down of both blocks");
        }
        Files.writeString(folder.resolve("config.json"), "{\"hidden_size\": -8}");
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.open(folder).close());
        assertEquals(folder.resolve("config.json") + ": hidden_size is -8, not a positive integer", e.getMessage());
    }

    @Test
    void expertsAndOtherFamiliesAreLabelled() {
        HfConfig mixtral = new HfConfig("mixtral", 8, 2, 4, 2, 2, 16, 4, 0);
        assertEquals(new LayerLabel(1, "down", 3, null),
                LayerLabels.of("model.layers.1.block_sparse_moe.experts.3.w2.weight", 8, 16, mixtral));
        assertEquals(new LayerLabel(1, "router", -1, null), LayerLabels.of("model.layers.1.block_sparse_moe.gate.weight", 4, 8, mixtral));
        assertTrue(LayerLabels.of("model.layers.1.block_sparse_moe.experts.5.w1.weight", 16, 8, mixtral).disagreement().contains("expert 5 of 4"));
        assertEquals("qkv", LayerLabels.of("transformer.h.0.attn.c_attn.weight", 24, 8, null).role());
        assertEquals("o", LayerLabels.of("transformer.h.0.attn.c_proj.weight", 8, 8, null).role());
        assertEquals("down", LayerLabels.of("transformer.h.0.mlp.c_proj.weight", 8, 32, null).role());
        assertEquals("up", LayerLabels.of("bert.encoder.layer.3.intermediate.dense.weight", 32, 8, null).role());
        assertEquals("o", LayerLabels.of("bert.encoder.layer.3.attention.output.dense.weight", 8, 8, null).role());
        assertEquals("down", LayerLabels.of("bert.encoder.layer.3.output.dense.weight", 8, 32, null).role());
        assertEquals(new LayerLabel(7, "gate", -1, null), LayerLabels.of("blk.7.ffn_gate.weight", 16, 8, null));
        assertEquals(LayerLabel.NONE, LayerLabels.of("classifier.weight", 2, 8, null));
    }

    @Test
    void gpt2sConv1dWeightsAreReadTransposedAndAgreeWithItsConfig() throws IOException {
        Map<String, long[]> stored = HfFixtures.gpt2Shapes();
        try (Model m = Models.open(HfFixtures.writeGpt2(dir.resolve("gpt2"), "gpt2"))) {
            assertEquals("4 Conv1D weights, stored [in, out] (transformers' Conv1D layout), read as [out, in] (gpt2)", m.metadata().get("layers.transposed"));
            for (GemmLayer l : m.layers()) {
                long[] s = stored.get(l.name());
                boolean conv1d = l.name().startsWith("transformer.h.");
                assertEquals(conv1d ? s[1] : s[0], l.rows(), l.name());
                float[] a = l.matrix().toDense();
                for (int r = 0; r < l.rows(); r++) {
                    for (int c = 0; c < l.cols(); c++) {
                        long flat = conv1d ? (long) c * s[1] + r : (long) r * s[1] + c; // [in, out] storage: A(r, c) = W[c][r]
                        assertEquals(flat + 1, a[r * l.cols() + c], l.name() + " (" + r + ", " + c + ")");
                    }
                }
            }
            for (LayerLabel label : LayerLabels.of(m)) assertNull(label.disagreement(), label.toString());
            assertEquals(List.of("qkv", "o", "up", "down"), LayerLabels.of(m).stream().map(LayerLabel::role).filter(r -> !r.isEmpty() && !r.equals("embed")).toList());
        }
        // GPTBigCode (StarCoder) names the same modules over nn.Linear: [out, in] as stored
        try (Model m = Models.open(HfFixtures.writeGpt2(dir.resolve("bigcode"), "gpt_bigcode"))) {
            assertNull(m.metadata().get("layers.transposed"));
            assertEquals(HfFixtures.HIDDEN, m.layers().stream().filter(l -> l.name().endsWith("c_attn.weight")).findFirst().orElseThrow().rows());
        }
    }

    @Test
    void aCausalLmWhoseHeadIsTiedToItsEmbeddingGetsTheHeadGemmOverTheEmbeddingsMatrix() throws IOException {
        List<Tensor> tensors = new ArrayList<>();
        HfFixtures.shapes().forEach((name, shape) -> {
            if (!name.equals("lm_head.weight")) tensors.add(HfFixtures.tensor(name, shape));
        });
        String config = HfFixtures.config(HfFixtures.BLOCKS); // LlamaForCausalLM, no tie_word_embeddings: transformers' default, tied
        for (String variant : List.of("tied", "untied", "encoder")) {
            Path folder = Files.createDirectories(dir.resolve(variant));
            SafetensorsWriter.write(folder.resolve("model.safetensors"), tensors, Map.of());
            String c = switch (variant) {
                case "untied" -> config.replace("{", "{\"tie_word_embeddings\": false, ");
                case "encoder" -> config.replace("LlamaForCausalLM", "LlamaModel");
                default -> config;
            };
            Files.writeString(folder.resolve("config.json"), c);
            try (Model m = Models.open(folder)) {
                GemmLayer head = m.layers().stream().filter(l -> l.name().equals("lm_head.weight")).findFirst().orElse(null);
                if (!variant.equals("tied")) {
                    assertNull(head, variant);
                    assertNull(m.metadata().get("layers.tied"), variant);
                    continue;
                }
                assertEquals("model.embed_tokens.weight", head.tensorName());
                assertEquals(LayerKind.LINEAR, head.kind());
                assertEquals(HfFixtures.VOCAB, head.rows());
                assertTrue(m.metadata().get("layers.tied").startsWith("lm_head.weight is model.embed_tokens.weight"));
                List<LayerLabel> labels = LayerLabels.of(m);
                assertEquals("head", labels.get(m.layers().indexOf(head)).role());
                assertEquals(1, labels.stream().filter(l -> l.role().equals("embed")).count(), "the gather stays the embedding");
            }
        }
        // an encoder-decoder (T5, BART) ties its head to the shared vocabulary table
        Path t5 = Files.createDirectories(dir.resolve("t5"));
        SafetensorsWriter.write(t5.resolve("model.safetensors"), List.of(HfFixtures.tensor("shared.weight", new long[] {HfFixtures.VOCAB, HfFixtures.HIDDEN}),
                HfFixtures.tensor("encoder.block.0.layer.0.SelfAttention.q.weight", new long[] {HfFixtures.HIDDEN, HfFixtures.HIDDEN}),
                // T5's position-bucket table: an nn.Embedding looked up, not a GEMM
                HfFixtures.tensor("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", new long[] {32, 4})), Map.of());
        Files.writeString(t5.resolve("config.json"), "{\"architectures\": [\"T5ForConditionalGeneration\"], \"model_type\": \"t5\", \"d_model\": "
                + HfFixtures.HIDDEN + ", \"vocab_size\": " + HfFixtures.VOCAB + "}");
        try (Model m = Models.open(t5)) {
            assertEquals(List.of(LayerKind.EMBEDDING_GATHER, LayerKind.LINEAR, LayerKind.EMBEDDING_GATHER, LayerKind.LINEAR),
                    m.layers().stream().map(GemmLayer::kind).toList());
            assertEquals("shared.weight", m.layers().get(3).tensorName());
        }
    }

    @Test
    void fusedExpertTensorsAreOneLayerOfEveryExpertsRowsInTheirModelTypesLayout() throws IOException {
        int experts = 2;
        int in = HfFixtures.HIDDEN;
        int out = 6;
        float[] v = new float[experts * in * out];
        for (int i = 0; i < v.length; i++) v[i] = i + 1;
        String stack = "model.layers.0.mlp.experts.gate_up_proj";
        List<Tensor> tensors = List.of(Tensor.ofFloats(stack, new long[] {experts, in, out}, v),
                Tensor.ofFloats(stack + "_bias", new long[] {experts, out}, new float[experts * out]),
                new Tensor("model.layers.0.mlp.experts.down_proj_blocks", DType.U8, new long[] {experts, in, 1, 16},
                        MemorySegment.ofArray(new byte[experts * in * 16])));
        for (String type : List.of("gpt_oss", "qwen3_moe")) {
            Path folder = Files.createDirectories(dir.resolve(type));
            SafetensorsWriter.write(folder.resolve("model.safetensors"), tensors, Map.of());
            Files.writeString(folder.resolve("config.json"), "{\"model_type\": \"" + type + "\", \"hidden_size\": " + in + ", \"num_hidden_layers\": 1}");
            try (Model m = Models.open(folder)) {
                assertEquals(List.of(stack), m.layers().stream().map(GemmLayer::name).toList(), "the bias is no layer, the MXFP4 blocks are named");
                assertTrue(m.metadata().get("tensors.skipped").contains("down_proj_blocks"), m.metadata().toString());
                GemmLayer l = m.layers().get(0);
                float[] a = l.matrix().toDense();
                boolean inOut = type.equals("gpt_oss"); // bmm operands [E, in, out]; else F.linear's [E, out, in]
                assertEquals(inOut ? experts * out : experts * in, l.rows(), type);
                for (int r = 0; r < l.rows(); r++) {
                    for (int c = 0; c < l.cols(); c++) {
                        int flat = inOut ? (r / out) * in * out + c * out + r % out : r * l.cols() + c;
                        assertEquals(flat + 1, a[r * l.cols() + c], type + " (" + r + ", " + c + ")");
                    }
                }
                assertTrue(m.metadata().get("layers.experts").startsWith("1 fused expert tensors"), m.metadata().toString());
            }
        }
    }

    /**
     * gpt-oss's MXFP4 experts ({@code _blocks} uint8 [E=2, out=3, G=2, 16] of bytes
     * {@code (i·29 + 3) & 0xff}, {@code _scales} [2, 3, 2] of {@code 118 + (i·5) % 17}): one layer of
     * all experts' rows equal to transformers 5.18's {@code convert_moe_packed_tensors} of the same
     * bytes (in fp32, transposed back to [E, out, in]: 336 non-zeros, sum 1766.8564453125, absolute
     * sum 15690.9150390625, A(0, 0) 0.0029296875, A(5, 63) -0.03125).
     */
    @Test
    void gptOssMxfp4ExpertsDequantizeAsTransformersDoes() throws IOException {
        byte[] blocks = new byte[2 * 3 * 2 * 16];
        for (int i = 0; i < blocks.length; i++) blocks[i] = (byte) (i * 29 + 3);
        byte[] scales = new byte[12];
        for (int i = 0; i < scales.length; i++) scales[i] = (byte) (118 + (i * 5) % 17);
        String p = "model.layers.0.mlp.experts.gate_up_proj";
        Path folder = Files.createDirectories(dir.resolve("gpt-oss"));
        SafetensorsWriter.write(folder.resolve("model.safetensors"), List.of(
                new Tensor(p + "_blocks", DType.U8, new long[] {2, 3, 2, 16}, MemorySegment.ofArray(blocks)),
                new Tensor(p + "_scales", DType.U8, new long[] {2, 3, 2}, MemorySegment.ofArray(scales))), Map.of());
        Files.writeString(folder.resolve("config.json"), "{\"model_type\": \"gpt_oss\", \"hidden_size\": 64, \"num_hidden_layers\": 1}");
        try (Model m = Models.open(folder)) {
            assertEquals(1, m.layers().size(), m.layers().toString());
            GemmLayer l = m.layers().get(0);
            assertEquals(p, l.name());
            assertEquals(6, l.rows());
            assertEquals(64, l.cols());
            assertEquals(DType.BF16, l.storedDType(), "multiplied in bf16, as gpt-oss's MoE kernels widen the codes");
            assertEquals(4.25, l.storedBitsPerWeight(), "MXFP4: 16 bytes of E2M1 pairs and a 1-byte E8M0 scale per 32 weights");
            float[] a = l.matrix().toDense();
            assertEquals(new Checksum(336, 1766.8564453125, 15690.9150390625), Checksum.of(a));
            assertEquals(0.0029296875f, a[0]);
            assertEquals(-0.03125f, a[5 * 64 + 63]);
            assertNull(m.metadata().get("tensors.skipped"), "decoded, so not named as left out");
        }
    }

    /** Top-2 of 4 experts: each routed expert's layers multiply half the tokens; the router, attention and a shared expert all of them. */
    @Test
    void routedExpertsMultiplyTheirShareOfTheTokens() throws IOException {
        long[] up = {HfFixtures.FFN, HfFixtures.HIDDEN};
        List<Tensor> tensors = List.of(HfFixtures.tensor("model.layers.0.self_attn.q_proj.weight", new long[] {HfFixtures.HIDDEN, HfFixtures.HIDDEN}),
                HfFixtures.tensor("model.layers.0.mlp.gate.weight", new long[] {4, HfFixtures.HIDDEN}),
                HfFixtures.tensor("model.layers.0.mlp.experts.3.up_proj.weight", up),
                HfFixtures.tensor("model.layers.0.mlp.shared_experts.up_proj.weight", up),
                HfFixtures.tensor("model.layers.0.mlp.experts.down_proj", new long[] {4, HfFixtures.HIDDEN, HfFixtures.FFN}));
        Path folder = Files.createDirectories(dir.resolve("moe"));
        SafetensorsWriter.write(folder.resolve("model.safetensors"), tensors, Map.of());
        Files.writeString(folder.resolve("config.json"), "{\"model_type\": \"qwen3_moe\", \"hidden_size\": " + HfFixtures.HIDDEN
                + ", \"num_hidden_layers\": 1, \"num_experts\": 4, \"num_experts_per_tok\": 2}");
        try (Model m = Models.open(folder)) {
            Map<String, Long> n = new LinkedHashMap<>();
            for (GemmLayer l : m.layers()) n.put(l.name(), l.denseColumns(128));
            assertEquals(Map.of("model.layers.0.self_attn.q_proj.weight", 128L, "model.layers.0.mlp.gate.weight", 128L,
                    "model.layers.0.mlp.experts.3.up_proj.weight", 64L, "model.layers.0.mlp.shared_experts.up_proj.weight", 128L,
                    "model.layers.0.mlp.experts.down_proj", 64L), n);
            GemmLayer expert = m.layers().get(2);
            assertEquals(1, expert.denseColumns(1), "one token, when the expert runs");
            assertEquals(0.5, expert.activeShare(1), 1e-12, "one token picks 2 of 4 experts");
            assertEquals(1 - Math.pow(0.5, 4), expert.activeShare(4), 1e-12);
            assertEquals(2, expert.denseColumns(4), "4 tokens' 2 expert passes over its 15/16 chance to run, rounded");
            assertEquals(1.0, m.layers().get(0).activeShare(1), "attention always runs");
            assertTrue(m.metadata().get("layers.routed").startsWith("2 routed expert layers multiply 2 of 4"), m.metadata().toString());
        }
    }

    /**
     * Meta's own release layout: {@code consolidated.00.pth} (torch.save, {@code layers.0.attention.wq})
     * beside {@code params.json}, whose FFN width follows Meta's rule: 2/3 of 4·64 = 170, times 1.3 =
     * 221, up to a multiple of 32 = 224 (Llama 3 8B's 14336 the same way).
     */
    @Test
    void metasConsolidatedCheckpointTakesItsFactsFromParamsJson() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("original"));
        String[] names = {"tok_embeddings.weight", "layers.0.attention.wq.weight", "layers.0.feed_forward.w1.weight", "output.weight"};
        long[][] shapes = {{100, 64}, {64, 64}, {224, 64}, {100, 64}};
        TorchFixtures.Pickle p = new TorchFixtures.Pickle().beginStateDict();
        byte[][] storages = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            long n = shapes[i][0] * shapes[i][1];
            p.str(names[i]).tensor("FloatStorage", Integer.toString(i), n, 0, shapes[i], new long[] {shapes[i][1], 1});
            float[] v = new float[(int) n];
            Arrays.fill(v, 0.5f);
            storages[i] = TorchFixtures.floats(v);
        }
        TorchFixtures.zip(folder.resolve("consolidated.00.pth"), TorchFixtures.archive("consolidated.00", p.endStateDict().bytes(), storages));
        Files.writeString(folder.resolve("params.json"), "{\"dim\": 64, \"ffn_dim_multiplier\": 1.3, \"multiple_of\": 32, \"n_heads\": 4, "
                + "\"n_kv_heads\": 2, \"n_layers\": 1, \"norm_eps\": 1e-05, \"vocab_size\": 100}");
        try (Model m = Models.open(folder)) {
            assertEquals("224", m.metadata().get("config.intermediate_size"));
            assertEquals(List.of("embed", "q", "gate", "head"), LayerLabels.of(m).stream().map(LayerLabel::role).toList());
            for (LayerLabel l : LayerLabels.of(m)) assertNull(l.disagreement(), l.toString());
        }
        TorchFixtures.zip(folder.resolve("consolidated.01.pth"), TorchFixtures.archive("consolidated.01", new TorchFixtures.Pickle().op('}').op('.').bytes()));
        assertFault(folder, "holds 2 consolidated.*.pth files: Meta's model-parallel shards");
    }

    /**
     * The Hugging Face hub cache: every file of {@code snapshots/REV} links to {@code ../../blobs/HASH}.
     * A sharded checkpoint there reads (its shards' kind from the names the index gives them); a
     * link anywhere else is still refused.
     */
    @Test
    void aSnapshotOfTheHubCacheReadsThroughItsBlobLinks() throws IOException {
        Path source = HfFixtures.write(dir.resolve("source"));
        Path repo = dir.resolve("hub/models--org--llama");
        Path blobs = Files.createDirectories(repo.resolve("blobs"));
        Path snapshot = Files.createDirectories(repo.resolve("snapshots/0123abcd"));
        List<Path> files;
        try (var list = Files.list(source)) {
            files = list.sorted().toList();
        }
        int i = 0;
        for (Path f : files) {
            Path blob = Files.copy(f, blobs.resolve("blob" + i++));
            Files.createSymbolicLink(snapshot.resolve(f.getFileName()), Path.of("../../blobs").resolve(blob.getFileName()));
        }
        try (Model cached = Models.open(snapshot); Model plain = Models.open(source)) {
            assertEquals(plain.layers().size(), cached.layers().size());
            assertEquals("2", cached.metadata().get("hf.shards"));
        }
        Path elsewhere = Files.createDirectories(repo.resolve("elsewhere"));
        Path shard = snapshot.resolve("model-00002-of-00002.safetensors");
        Files.move(blobs.resolve(Files.readSymbolicLink(shard).getFileName()), elsewhere.resolve("x"));
        Files.delete(shard);
        Files.createSymbolicLink(shard, Path.of("../../elsewhere/x"));
        assertFault(snapshot.resolve("model.safetensors.index.json"), "refusing file reference 'model-00002-of-00002.safetensors': it links to");
    }

    /**
     * compressed-tensors' sparse-bitmask form (llm-compressor's sparse checkpoints): {@code P.compressed}
     * values, {@code P.bitmask} (numpy {@code packbits(mask, axis=-1, bitorder="little")}),
     * {@code P.row_offsets}, {@code P.shape} rebuild the dense weight exactly; offsets that disagree
     * with the bitmask leave the weight out, named.
     */
    @Test
    void bitmaskCompressedWeightsRebuildTheirDenseMatrix() throws IOException {
        int rows = 5;
        int cols = 11;
        float[] dense = new float[rows * cols];
        for (int i = 0; i < dense.length; i++) dense[i] = i % 3 == 1 ? 0 : i - 20; // element 20 is a stored-looking zero too
        int rowBytes = (cols + 7) / 8;
        byte[] mask = new byte[rows * rowBytes];
        long[] offsets = new long[rows];
        List<Float> kept = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            offsets[r] = kept.size();
            for (int c = 0; c < cols; c++) {
                float v = dense[r * cols + c];
                if (v == 0) continue;
                mask[r * rowBytes + c / 8] |= (byte) (1 << (c % 8));
                kept.add(v);
            }
        }
        float[] values = new float[kept.size()];
        for (int i = 0; i < values.length; i++) values[i] = kept.get(i);
        String p = "model.layers.0.mlp.up_proj";
        for (boolean lie : new boolean[] {false, true}) {
            long[] offs = offsets.clone();
            if (lie) offs[3]++;
            Path folder = Files.createDirectories(dir.resolve(lie ? "lying" : "bitmask"));
            SafetensorsWriter.write(folder.resolve("model.safetensors"), List.of(
                    Tensor.ofFloats(p + ".compressed", new long[] {values.length}, values),
                    new Tensor(p + ".bitmask", DType.U8, new long[] {rows, rowBytes}, MemorySegment.ofArray(mask)),
                    new Tensor(p + ".row_offsets", DType.I64, new long[] {rows}, MemorySegment.ofArray(offs)),
                    new Tensor(p + ".shape", DType.I64, new long[] {2, 1}, MemorySegment.ofArray(new long[] {rows, cols}))),
                    Map.of());
            try (Model m = Models.open(folder)) {
                if (lie) {
                    assertTrue(m.layers().isEmpty());
                    assertTrue(m.metadata().get("bitmask.skipped").contains("row 3 starts at value"), m.metadata().toString());
                    continue;
                }
                assertEquals(1, m.layers().size());
                GemmLayer l = m.layers().get(0);
                assertEquals(p + ".weight", l.name());
                assertArrayEquals(dense, l.matrix().toDense());
                assertNull(m.metadata().get("tensors.skipped"), "decoded, not left out");
            }
        }
    }

    /**
     * compressed-tensors' sparse-24-bitmask form (llm-compressor's 2:4 checkpoints): no row offsets,
     * {@code P.compressed} is {@code [rows, cols / 2]}, the two largest magnitudes of every group of
     * four (a group with one non-zero keeps a zero, one with none keeps two). It rebuilds the dense
     * weight exactly, and the half-width values tensor is no layer of its own; a bitmask row that does
     * not set half its bits, or values of another shape, leave the weight out, named.
     */
    @Test
    void twoFourBitmaskCompressedWeightsRebuildTheirDenseMatrix() throws IOException {
        int rows = 3;
        int cols = 16;
        float[] dense = new float[rows * cols];
        for (int i = 0; i < dense.length; i++) dense[i] = (i * 7 % 5 - 2) * (1 + i % 3);
        for (int c = 0; c < 4; c++) dense[cols + c] = c == 2 ? 3 : 0;   // row 1's first group: one non-zero
        for (int c = 4; c < 8; c++) dense[2 * cols + c] = 0;            // row 2's second group: none
        int rowBytes = cols / 8;
        byte[] mask = new byte[rows * rowBytes];
        float[] values = new float[rows * cols / 2];
        int v = 0;
        for (int r = 0; r < rows; r++) {
            for (int g = 0; g < cols; g += 4) {
                Integer[] order = {0, 1, 2, 3};
                int base = r * cols + g;
                Arrays.sort(order, (x, y) -> Float.compare(Math.abs(dense[base + y]), Math.abs(dense[base + x]))); // stable: ties keep column order
                int[] keep = {Math.min(order[0], order[1]), Math.max(order[0], order[1])};
                for (int j = 0; j < 4; j++) if (j != keep[0] && j != keep[1]) dense[base + j] = 0; // the 2:4-pruned weight
                for (int j : keep) {
                    mask[r * rowBytes + (g + j) / 8] |= (byte) (1 << ((g + j) % 8));
                    values[v++] = dense[base + j];
                }
            }
        }
        String p = "model.layers.0.self_attn.q_proj";
        for (String lie : new String[] {"none", "three bits", "flat values"}) {
            byte[] m = mask.clone();
            if (lie.equals("three bits")) m[rowBytes] |= 0x08;
            long[] valueShape = lie.equals("flat values") ? new long[] {values.length} : new long[] {rows, cols / 2};
            Path folder = Files.createDirectories(dir.resolve("two-four-" + lie.replace(' ', '-')));
            SafetensorsWriter.write(folder.resolve("model.safetensors"), List.of(
                    Tensor.ofFloats(p + ".compressed", valueShape, values),
                    new Tensor(p + ".bitmask", DType.U8, new long[] {rows, rowBytes}, MemorySegment.ofArray(m)),
                    new Tensor(p + ".shape", DType.I64, new long[] {2, 1}, MemorySegment.ofArray(new long[] {rows, cols}))),
                    Map.of());
            try (Model model = Models.open(folder)) {
                if (!lie.equals("none")) {
                    assertTrue(model.layers().isEmpty(), lie + ": the half-width values are no layer either");
                    assertTrue(model.metadata().get("bitmask.skipped").contains(lie.equals("three bits")
                            ? "row 1 of the 2:4 bitmask sets 9 bits, not 8" : "are not [3, 8] numbers"), model.metadata().toString());
                    continue;
                }
                assertEquals(1, model.layers().size(), "the weight, not its half-width values tensor");
                GemmLayer l = model.layers().get(0);
                assertEquals(p + ".weight", l.name());
                assertEquals(rows, l.rows());
                assertEquals(cols, l.cols());
                assertArrayEquals(dense, l.matrix().toDense());
                assertNull(model.metadata().get("tensors.skipped"), "decoded, not left out");
            }
        }
    }

    @Test
    void aFolderWithOneWeightsFileNeedsNoIndex() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("one"));
        SafetensorsWriter.write(folder.resolve("model.safetensors"),
                List.of(HfFixtures.tensor("model.layers.0.mlp.up_proj.weight", new long[] {16, 8})), Map.of());
        Files.writeString(folder.resolve("config.json"), HfFixtures.config(1));
        try (Model m = Models.open(folder)) {
            assertEquals("hf", m.format());
            assertEquals(1, m.layers().size());
            assertEquals("up", LayerLabels.of(m).get(0).role());
        }
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertFault(empty, "without model.safetensors");
        Path pipeline = Files.createDirectories(dir.resolve("pipeline"));
        Files.writeString(pipeline.resolve("model_index.json"), "{\"_class_name\": \"StableDiffusionPipeline\", \"unet\": [\"diffusers\", \"UNet2DConditionModel\"]}");
        assertFault(pipeline, "is a diffusers pipeline (model_index.json): name one of its component folders");
    }

    @Test
    void anIndexThatLeavesItsFolderOrNamesWhatIsNotThereIsRefused() throws IOException {
        Path folder = HfFixtures.write(dir.resolve("llama"));
        Path index = folder.resolve("model.safetensors.index.json");
        String good = Files.readString(index);
        Files.copy(folder.resolve("model-00002-of-00002.safetensors"), dir.resolve("outside.safetensors"));
        Files.writeString(index, good.replace("model-00002-of-00002.safetensors", "../outside.safetensors"));
        assertFault(index, "refusing file reference '../outside.safetensors' with '..'");
        Files.writeString(index, good.replace("model-00002-of-00002.safetensors", dir.resolve("outside.safetensors").toString()));
        assertFault(index, "refusing absolute file reference");
        Files.createSymbolicLink(folder.resolve("link.safetensors"), dir.resolve("outside.safetensors"));
        Files.writeString(index, good.replace("model-00002-of-00002.safetensors", "link.safetensors"));
        assertFault(index, "it links to");
        Files.writeString(index, good.replace("model-00002-of-00002.safetensors", "model-00003-of-00002.safetensors"));
        assertFault(index, "'model-00003-of-00002.safetensors' does not exist");
        Files.writeString(index, good.replace("\"lm_head.weight\": \"model-00002", "\"lm_head.weight\": \"model-00001"));
        assertFault(index, "puts tensor 'lm_head.weight' in model-00001-of-00002.safetensors, which does not hold it");
        Files.writeString(index, "{\"metadata\": {}}");
        assertFault(index, "has no weight_map");
        Files.writeString(index, "{\"weight_map\": {\"a\": 3}}");
        assertFault(index, "'a' is not a file name");
        Files.writeString(index, good.substring(0, good.length() / 2));
        assertFault(index, "model.safetensors.index.json: ");
        Files.writeString(index, good);
        Files.write(folder.resolve("model-00001-of-00002.safetensors"), new byte[] {1, 2, 3});
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.open(index).close());
        assertTrue(e.getMessage().startsWith(folder.resolve("model-00001-of-00002.safetensors") + ": truncated"), e.getMessage());
    }

    @Test
    void naturalOrderComparesNumbersByValue() {
        List<String> names = new ArrayList<>(List.of("layers.10.q", "layers.2.q", "layers.1.q", "layers.02.k", "a"));
        names.sort(HfCheckpointReader.NaturalOrder.INSTANCE);
        assertEquals(List.of("a", "layers.1.q", "layers.02.k", "layers.2.q", "layers.10.q"), names);
    }
}
