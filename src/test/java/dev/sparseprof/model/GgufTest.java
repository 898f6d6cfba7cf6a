package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GgufTest {
    static final int HIDDEN = 32;
    static final int FFN = 64;
    @TempDir Path dir;

    /** Q8_0 [32 out x 32 in]: one block per row, every third quant 0, row 5's scale infinite. */
    static final float[] Q8_SCALES = new float[HIDDEN];
    static final byte[] Q8_QUANTS = new byte[HIDDEN * 32];
    /** Q4_0 [32 out x 64 in]: two blocks per row, nibble 8 (zero) at every fifth element, one NaN scale. */
    static final float[] Q4_SCALES = new float[HIDDEN * 2];
    static final int[] Q4_NIBBLES = new int[HIDDEN * FFN];
    static final float[] BF16_GATE = new float[FFN * HIDDEN];

    static {
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < Q8_SCALES.length; i++) Q8_SCALES[i] = (float) (0.01 + r.nextDouble() * 0.1);
        Q8_SCALES[5] = Float.POSITIVE_INFINITY;
        for (int i = 0; i < Q8_QUANTS.length; i++) Q8_QUANTS[i] = i % 3 == 0 ? 0 : (byte) (r.nextInt(255) - 127);
        for (int i = 0; i < Q4_SCALES.length; i++) Q4_SCALES[i] = (float) (0.01 + r.nextDouble() * 0.1);
        Q4_SCALES[7] = Float.NaN;
        for (int i = 0; i < Q4_NIBBLES.length; i++) Q4_NIBBLES[i] = i % 5 == 0 ? 8 : r.nextInt(16);
        for (int i = 0; i < BF16_GATE.length; i++) BF16_GATE[i] = i % 4 == 0 ? 0 : (float) r.nextGaussian();
    }

    static GgufWriter llama() {
        byte[] gate = new byte[BF16_GATE.length * 2];
        for (int i = 0; i < BF16_GATE.length; i++) {
            int bits = Float.floatToIntBits(BF16_GATE[i]) >>> 16;
            gate[2 * i] = (byte) bits;
            gate[2 * i + 1] = (byte) (bits >>> 8);
        }
        float[] embed = new float[4 * HIDDEN];
        Arrays.fill(embed, 0.5f);
        return new GgufWriter().string("general.architecture", "llama").string("general.name", "tiny")
                .u32("llama.embedding_length", HIDDEN).u32("llama.block_count", 1).u32("llama.feed_forward_length", FFN)
                .u32("llama.attention.head_count", 4).u32("llama.attention.head_count_kv", 4).f32("llama.rope.freq_base", 10000f)
                .strings("tokenizer.ggml.tokens", "<s>", "</s>", "a", "b")
                .tensor("token_embd.weight", new long[] {HIDDEN, 4}, 1, GgufWriter.f16(embed))
                .tensor("blk.0.attn_norm.weight", new long[] {HIDDEN}, 0, GgufWriter.f32(new float[HIDDEN]))
                .tensor("blk.0.attn_q.weight", new long[] {HIDDEN, HIDDEN}, 8, GgufWriter.q8(Q8_SCALES, Q8_QUANTS))
                .tensor("blk.0.ffn_gate.weight", new long[] {HIDDEN, FFN}, 30, gate)
                .tensor("blk.0.ffn_up.weight", new long[] {256, FFN / 8}, 16, new byte[FFN / 8 * 66])
                .tensor("blk.0.ffn_down.weight", new long[] {FFN, HIDDEN}, 2, GgufWriter.q4(Q4_SCALES, Q4_NIBBLES))
                .tensor("output.weight", new long[] {HIDDEN, 4}, 0, GgufWriter.f32(embed));
    }

    /**
     * Q6_K [2 out x 512 in] (two super-blocks a row) of bytes {@code (i·37 + 11) & 0xff} with each
     * block's fp16 d set to 0.01: its dequantized values against gguf-py 0.19's
     * {@code quants.dequantize(bytes, Q6_K)} of the same bytes (1016 non-zeros; sum 50.57080078125,
     * absolute sum 11188.08952331543; element (0, 0) -14.313057, (1, 300) -3.8508224).
     */
    @Test
    void q6KIsDequantizedAsGgufPyDoes() throws IOException {
        byte[] data = new byte[840];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 37 + 11);
        short d = Float.floatToFloat16(0.01f);
        for (int block = 0; block < 4; block++) {
            data[block * 210 + 208] = (byte) d;
            data[block * 210 + 209] = (byte) (d >>> 8);
        }
        GgufWriter w = new GgufWriter().string("general.architecture", "llama").tensor("output.weight", new long[] {512, 2}, 14, data);
        try (Model m = Models.open(write("q6k.gguf", w.bytes()))) {
            GemmLayer l = m.layers().get(0);
            assertEquals(2, l.rows());
            assertEquals(512, l.cols());
            float[] v = l.matrix().toDense();
            Checksum c = Checksum.of(v);
            assertEquals(1016, c.nonZeros());
            assertEquals(50.57080078125, c.sum(), 1e-9);
            assertEquals(11188.08952331543, c.absSum(), 1e-9);
            assertEquals(-14.313057f, v[0], 1e-6f);
            assertEquals(-3.8508224f, v[512 + 300], 1e-6f);
            assertEquals(null, m.metadata().get("gguf.skipped"));
        }
    }

    /**
     * The affine K-quants, Q4_K and Q5_K [2 out x 512 in], of bytes {@code (i·37 + 11) & 0xff} with
     * each block's fp16 d 0.01, dmin 0.02 and sub-block 0's min 0 (so its zero quants decode to
     * exactly 0): against gguf-py 0.19's {@code quants.dequantize} of the same bytes, its values
     * accumulated in order in double. Their encodings weigh 4.5 and 5.5 bits per weight.
     */
    @Test
    void affineKQuantsAreDequantizedAsGgufPyDoes() throws IOException {
        int[] at = {0, 512 + 300, 777};
        int[] sub0Min = {8}; // sub-block 0's min (and the top bits of sub-block 4's)
        checkAgainstGgufPy(new BlockCase("Q4_K", 12, 144, 256, 512, new int[] {0, 2}, new float[] {0.01f, 0.02f}, sub0Min,
                new Checksum(1008, 1968.42041015625, 2127.7344360351562), at, new float[] {3.4107284545898438f, 4.0008544921875f, 1.20025634765625f}, 4.5));
        checkAgainstGgufPy(new BlockCase("Q5_K", 13, 176, 256, 512, new int[] {0, 2}, new float[] {0.01f, 0.02f}, sub0Min,
                new Checksum(1016, 4562.574462890625, 4699.703750610352), at, new float[] {8.371788024902344f, 2.4005126953125f, 3.76080322265625f}, 5.5));
    }

    /**
     * The other block types llama.cpp's files mix in (Q4_1, Q5_0 and Q5_1 of 32 elements; Q2_K and
     * Q3_K of 256, the bulk of Q2_K and Q3_K_M files), each [2 out x 256 in] of bytes
     * {@code (i·37 + 11) & 0xff} with each block's fp16 scales set (Q4_1 d 0.01, m 0.02; Q5_0 d 0.01;
     * Q5_1 d 0.01, m -0.05; Q2_K d 0.01, dmin 0.02; Q3_K d 0.01): against gguf-py 0.19's
     * {@code quants.dequantize} of the same bytes (non-zeros, sum and absolute sum in order in double,
     * elements (0, 0), (1, 45) and (1, 255)), and each at its encoding's bits per weight.
     */
    @Test
    void theOtherBlockTypesAreDequantizedAsGgufPyDoes() throws IOException {
        int[] at = {0, 256 + 45, 511};
        int[] none = {};
        checkAgainstGgufPy(new BlockCase("Q4_1", 3, 20, 32, 256, new int[] {0, 2}, new float[] {0.01f, 0.02f}, none,
                new Checksum(512, 48.650390625, 48.650390625), at, new float[] {0.17003631591796875f, 0.0600128173828125f, 0.040008544921875f}, 5));
        checkAgainstGgufPy(new BlockCase("Q5_0", 6, 22, 32, 256, new int[] {0}, new float[] {0.01f}, none,
                new Checksum(494, -2.240478515625, 40.88873291015625), at, new float[] {0.09001922607421875f, -0.08001708984375f, -0.040008544921875f}, 5.5));
        checkAgainstGgufPy(new BlockCase("Q5_1", 7, 24, 32, 256, new int[] {0, 2}, new float[] {0.01f, -0.05f}, none,
                new Checksum(512, 56.5037841796875, 60.681427001953125), at, new float[] {0.14005279541015625f, 0.230072021484375f, 0.0100250244140625f}, 6));
        checkAgainstGgufPy(new BlockCase("Q2_K", 10, 84, 256, 256, new int[] {80, 82}, new float[] {0.01f, 0.02f}, none,
                new Checksum(472, -11.082366943359375, 59.29266357421875), at, new float[] {0.33007049560546875f, -0.1400299072265625f, 0.1000213623046875f}, 2.625));
        checkAgainstGgufPy(new BlockCase("Q3_K", 11, 110, 256, 256, new int[] {108}, new float[] {0.01f}, none,
                new Checksum(446, 7.951698303222656, 174.68730926513672), at, new float[] {0.8101730346679688f, 0.0f, 0.0600128173828125f}, 3.4375));
    }

    /**
     * IQ4_NL and IQ4_XS (16 non-uniform levels, none of them 0: 512 non-zeros of 512) and the ternary
     * TQ1_0 and TQ2_0 (BitNet b1.58's GGUF types), each [2 out x 256 in] of bytes {@code (i·37 + 11) & 0xff}
     * with each block's fp16 d set to 0.01: against gguf-py 0.19's {@code quants.dequantize} of the same
     * bytes, as for the other block types, and at their encodings' bits per weight.
     */
    @Test
    void iq4AndTernaryTypesAreDequantizedAsGgufPyDoes() throws IOException {
        int[] at = {0, 256 + 45, 511};
        int[] none = {};
        checkAgainstGgufPy(new BlockCase("IQ4_NL", 20, 18, 32, 256, new int[] {0}, new float[] {0.01f}, none,
                new Checksum(512, -27.335838317871094, 285.83104705810547), at, new float[] {-0.35007476806640625f, -1.2702713012695312f, 0.01000213623046875f}, 4.5));
        checkAgainstGgufPy(new BlockCase("IQ4_XS", 23, 136, 256, 256, new int[] {0}, new float[] {0.01f}, none,
                new Checksum(512, -73.23564147949219, 3997.373748779297), at, new float[] {0.6501388549804688f, 10.602264404296875f, 13.652915954589844f}, 4.25));
        checkAgainstGgufPy(new BlockCase("TQ1_0", 34, 54, 256, 256, new int[] {52}, new float[] {0.01f}, none,
                new Checksum(342, -0.040008544921875, 3.4207305908203125), at, new float[] {-0.01000213623046875f, -0.01000213623046875f, 0.01000213623046875f}, 1.6875));
        checkAgainstGgufPy(new BlockCase("TQ2_0", 35, 66, 256, 256, new int[] {64}, new float[] {0.01f}, none,
                new Checksum(387, 2.560546875, 5.161102294921875), at, new float[] {0.0200042724609375f, 0.0f, 0.01000213623046875f}, 2.0625));
    }

    /**
     * A [2 out x {@code cols} in] weight of GGUF type {@code id} whose bytes are {@code (i·37 + 11) & 0xff},
     * each block's fp16 {@code scales} written at {@code scaleOffsets} and the bytes at {@code zeroed}
     * set to 0, and what gguf-py 0.19's {@code quants.dequantize} gives for those bytes: its checksum,
     * the elements at {@code at} and the encoding's bits per weight.
     */
    record BlockCase(String type, int id, int blockBytes, int blockElements, int cols, int[] scaleOffsets, float[] scales, int[] zeroed,
                     Checksum sums, int[] at, float[] elements, double bits) {}

    /** Writes the case's file and checks the decoded layer against gguf-py's values, exactly. */
    void checkAgainstGgufPy(BlockCase c) throws IOException {
        int blocks = 2 * c.cols() / c.blockElements();
        byte[] data = new byte[blocks * c.blockBytes()];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 37 + 11);
        for (int b = 0; b < blocks; b++) {
            for (int s = 0; s < c.scaleOffsets().length; s++) {
                short h = Float.floatToFloat16(c.scales()[s]);
                data[b * c.blockBytes() + c.scaleOffsets()[s]] = (byte) h;
                data[b * c.blockBytes() + c.scaleOffsets()[s] + 1] = (byte) (h >>> 8);
            }
            for (int z : c.zeroed()) data[b * c.blockBytes() + z] = 0;
        }
        GgufWriter w = new GgufWriter().string("general.architecture", "llama").tensor("blk.0.ffn_down.weight", new long[] {c.cols(), 2}, c.id(), data);
        try (Model m = Models.open(write(c.type() + ".gguf", w.bytes()))) {
            GemmLayer l = m.layers().get(0);
            assertEquals(2, l.rows(), c.type());
            assertEquals(c.cols(), l.cols(), c.type());
            float[] v = l.matrix().toDense();
            Checksum got = Checksum.of(v);
            assertEquals(c.sums().nonZeros(), got.nonZeros(), c.type());
            assertEquals(c.sums().sum(), got.sum(), 1e-9, c.type());
            assertEquals(c.sums().absSum(), got.absSum(), 1e-9, c.type());
            for (int i = 0; i < c.at().length; i++) assertEquals(c.elements()[i], v[c.at()[i]], c.type() + " element " + c.at()[i]);
            assertEquals(c.bits(), l.storedBitsPerWeight(), c.type());
            assertEquals(DType.I8, l.storedDType(), c.type());
            assertNull(m.metadata().get("gguf.skipped"), c.type());
        }
    }

    /**
     * Files gguf-py itself wrote (src/test/resources/gguf, generate.py there): one magnitude-pruned
     * weight (50 % zeros) quantized by gguf-py 0.19's reference quantizers. The decoded layer has
     * the non-zero count, sum and absolute sum of gguf-py's own dequantization (expected.json): the
     * symmetric Q4_0 and Q5_0 keep every pruned zero, the affine Q4_1 and Q5_1 (an offset per
     * block) keep almost none, which is what a kernel multiplying those files sees.
     */
    @Test
    void filesGgufPyQuantizedReadAsGgufPyDequantizesThem() throws IOException {
        Path folder = Path.of("src/test/resources/gguf");
        Map<String, Object> expected = Json.parseObject(Files.readString(folder.resolve("expected.json")));
        assertEquals(Set.of("q4_0", "q4_1", "q5_0", "q5_1"), expected.keySet());
        for (var e : expected.entrySet()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> want = (Map<String, Object>) e.getValue();
            try (Model m = Models.open(folder.resolve("pruned-" + e.getKey() + ".gguf"))) {
                GemmLayer l = m.layers().get(0);
                assertEquals(256, l.rows(), e.getKey());
                assertEquals(512, l.cols(), e.getKey());
                Checksum c = Checksum.of(l.matrix().toDense());
                assertEquals(((Number) want.get("nonZeros")).longValue(), c.nonZeros(), e.getKey());
                assertEquals(((Number) want.get("sum")).doubleValue(), c.sum(), 1e-6, e.getKey());
                assertEquals(((Number) want.get("absSum")).doubleValue(), c.absSum(), 1e-6, e.getKey());
            }
        }
        assertEquals(65536, ((Number) ((Map<?, ?>) expected.get("q5_0")).get("nonZeros")).longValue(), "symmetric: the pruned half stays zero");
        assertTrue(((Number) ((Map<?, ?>) expected.get("q4_1")).get("nonZeros")).longValue() > 130_000, "affine: the zeros come back as offsets");
    }

    Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    /**
     * MXFP4 [2 out x 64 in] (gpt-oss's experts in llama.cpp) of bytes {@code (i·53 + 7) & 0xff} with
     * the four blocks' E8M0 scales set to 120, 127, 130 and 1 (a subnormal scale): its dequantized
     * values against gguf-py 0.19's {@code quants.dequantize(bytes, MXFP4)} of the same bytes (114
     * non-zeros; sum -1.9375, absolute sum 674.5703125; element 0 -0.015625, 40 -0.5, 100
     * -7.052966104933725e-38).
     */
    @Test
    void mxfp4IsDequantizedAsGgufPyDoes() throws IOException {
        byte[] data = new byte[68];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 53 + 7);
        int[] scales = {120, 127, 130, 1};
        for (int block = 0; block < 4; block++) data[block * 17] = (byte) scales[block];
        GgufWriter w = new GgufWriter().string("general.architecture", "gpt-oss").tensor("blk.0.ffn_up_exps.weight", new long[] {64, 2}, 39, data);
        try (Model m = Models.open(write("mxfp4.gguf", w.bytes()))) {
            GemmLayer l = m.layers().get(0);
            assertEquals(2, l.rows());
            assertEquals(4.25, l.storedBitsPerWeight(), "GGUF MXFP4: 17 bytes per 32 weights");
            float[] v = l.matrix().toDense();
            assertEquals(new Checksum(114, -1.9375, 674.5703125), Checksum.of(v));
            assertEquals(-0.015625f, v[0]);
            assertEquals(-0.5f, v[40]);
            assertEquals(-7.052966104933725e-38f, v[100]);
        }
    }

    /**
     * A model that llama.cpp's gguf-split cut into files ({@code STEM-0000i-of-0000N.gguf}, each with
     * {@code split.no} and {@code split.count}) reads as one from any of its files: the output in the
     * last file is the stored head, not a tied one. A missing or mislabelled file is one line.
     */
    @Test
    void aSplitModelReadsAsOneFromAnyOfItsFiles() throws IOException {
        float[] embed = new float[4 * HIDDEN];
        Arrays.fill(embed, 0.5f);
        IntFunction<GgufWriter> split = i -> new GgufWriter().string("general.architecture", "llama")
                .u32("llama.embedding_length", HIDDEN).u32("split.no", i).u32("split.count", 2).u32("split.tensors.count", 3);
        write("m-00001-of-00002.gguf", split.apply(0).tensor("token_embd.weight", new long[] {HIDDEN, 4}, 0, GgufWriter.f32(embed))
                .tensor("blk.0.attn_q.weight", new long[] {HIDDEN, HIDDEN}, 0, GgufWriter.f32(new float[HIDDEN * HIDDEN])).bytes());
        Path last = write("m-00002-of-00002.gguf", split.apply(1).tensor("output.weight", new long[] {HIDDEN, 4}, 0, GgufWriter.f32(embed)).bytes());
        for (String f : List.of("m-00001-of-00002.gguf", "m-00002-of-00002.gguf")) {
            try (Model m = Models.open(dir.resolve(f))) {
                assertEquals(List.of("token_embd.weight", "blk.0.attn_q.weight", "output.weight"), m.layers().stream().map(GemmLayer::name).toList(), f);
                assertEquals("output.weight", m.layers().get(2).tensorName(), "the stored output, not the token table");
                assertEquals(null, m.metadata().get("layers.tied"));
            }
        }
        Files.write(last, split.apply(0).tensor("output.weight", new long[] {HIDDEN, 4}, 0, GgufWriter.f32(embed)).bytes());
        OnnxReaderTest.assertFaultOf(() -> Models.open(dir.resolve("m-00001-of-00002.gguf")).close(),
                last + ": does not say it is file 2 of 2 (split.no 0, split.count 2)");
        Files.delete(last);
        assertFault(dir.resolve("m-00001-of-00002.gguf"), "'m-00002-of-00002.gguf' does not exist");
    }

    /** llama.cpp's {@code expert_used_count} of {@code expert_count}: the stacked experts multiply that share of the tokens, the router all. */
    @Test
    void stackedExpertsMultiplyTheirShareOfTheTokens() throws IOException {
        GgufWriter w = new GgufWriter().string("general.architecture", "qwen3moe").u32("qwen3moe.embedding_length", HIDDEN).u32("qwen3moe.expert_count", 8).u32("qwen3moe.expert_used_count", 2)
                .tensor("blk.0.ffn_gate_inp.weight", new long[] {HIDDEN, 8}, 0, GgufWriter.f32(new float[HIDDEN * 8]))
                .tensor("blk.0.ffn_up_exps.weight", new long[] {HIDDEN, 4, 8}, 0, GgufWriter.f32(new float[HIDDEN * 4 * 8]));
        try (Model m = Models.open(write("moe.gguf", w.bytes()))) {
            assertEquals(List.of(512L, 128L), m.layers().stream().map(l -> l.denseColumns(512)).toList());
            assertEquals(32, m.layers().get(1).rows(), "8 experts of 4 rows");
        }
    }

    /**
     * A decoder without {@code output.weight} multiplies by its token embedding, as llama.cpp loads
     * it (the output "not required", then {@code token_embd} duplicated): the tied head is a layer; an
     * embedding encoder ({@code bert}) has no output projection and gets none.
     */
    @Test
    void aDecoderWithoutAnOutputTensorMultipliesByItsTokenEmbedding() throws IOException {
        float[] embed = new float[4 * HIDDEN];
        Arrays.fill(embed, 0.25f);
        for (String arch : List.of("llama", "bert")) {
            GgufWriter w = new GgufWriter().string("general.architecture", arch)
                    .tensor("token_embd.weight", new long[] {HIDDEN, 4}, 1, GgufWriter.f16(embed))
                    .tensor("blk.0.attn_q.weight", new long[] {HIDDEN, HIDDEN}, 0, GgufWriter.f32(new float[HIDDEN * HIDDEN]));
            try (Model m = Models.open(write("tied-" + arch + ".gguf", w.bytes()))) {
                List<String> names = m.layers().stream().map(GemmLayer::name).toList();
                if (arch.equals("bert")) {
                    assertEquals(List.of("token_embd.weight", "blk.0.attn_q.weight"), names);
                    continue;
                }
                assertEquals(List.of("token_embd.weight", "blk.0.attn_q.weight", "output.weight"), names);
                GemmLayer head = m.layers().get(2);
                assertEquals(LayerKind.LINEAR, head.kind());
                assertEquals("token_embd.weight", head.tensorName());
                assertEquals(4, head.rows());
                assertEquals("head", LayerLabels.of(m).get(2).role());
                assertTrue(m.metadata().get("layers.tied").startsWith("output.weight is token_embd.weight"));
            }
        }
    }

    @Test
    void versionsTwoAndThreeReadFloatsAndDequantizeQ8AndQ4BlockByBlock() throws IOException {
        for (int version : new int[] {2, 3}) {
            GgufWriter w = llama();
            w.version = version;
            try (Model m = Models.open(write("tiny-v" + version + ".gguf", w.bytes()))) {
                assertEquals("gguf", m.format());
                assertEquals(Integer.toString(version), m.metadata().get("gguf.version"));
                assertEquals("[4 x string]", m.metadata().get("tokenizer.ggml.tokens"));
                assertEquals("tiny", m.metadata().get("general.name"));
                assertEquals(7, m.tensors().size());
                List<String> names = new ArrayList<>();
                for (GemmLayer l : m.layers()) names.add(l.name());
                assertEquals(List.of("token_embd.weight", "blk.0.attn_q.weight", "blk.0.ffn_gate.weight", "blk.0.ffn_down.weight", "output.weight"), names);
                assertEquals(LayerKind.EMBEDDING_GATHER, m.layers().get(0).kind());
                assertEquals(DType.I8, m.layers().get(1).storedDType(), "Q8_0 is priced as int8, the type llama.cpp multiplies it in");
                assertEquals(8.5, m.layers().get(1).storedBitsPerWeight(), "Q8_0: a 2-byte scale per 32 int8 quants");
                assertEquals(4.5, m.layers().get(3).storedBitsPerWeight(), "Q4_0: a 2-byte scale per 32 nibbles");
                assertEquals(16, m.layers().get(2).storedBitsPerWeight(), "bf16 weighs its width");
                assertEquals(4, m.layers().get(0).rows());
                assertTrue(m.metadata().get("gguf.skipped").contains("1 x IQ2_XXS"), m.metadata().get("gguf.skipped"));

                float[] q = m.layers().get(1).matrix().toDense();
                for (int row = 0; row < HIDDEN; row++) {
                    float d = Float.float16ToFloat(Float.floatToFloat16(Q8_SCALES[row]));
                    for (int j = 0; j < 32; j++) {
                        int qv = Q8_QUANTS[row * 32 + j];
                        float want = qv == 0 ? 0.0f : d * qv;
                        assertEquals(want, q[row * 32 + j], "q8 row " + row + " col " + j);
                    }
                }
                assertEquals(0.0f, q[5 * 32 + 2], "a zero quant stays zero under an infinite scale");

                GemmLayer gate = m.layers().get(2);
                assertEquals(FFN, gate.rows());
                assertEquals(HIDDEN, gate.cols());
                float[] g = gate.matrix().toDense();
                for (int i = 0; i < g.length; i++) assertEquals(Float.intBitsToFloat(Float.floatToIntBits(BF16_GATE[i]) & 0xffff0000), g[i]);

                GemmLayer down = m.layers().get(3);
                assertEquals(HIDDEN, down.rows());
                assertEquals(FFN, down.cols());
                float[] dn = down.matrix().toDense();
                int zeros = 0;
                for (int i = 0; i < dn.length; i++) {
                    int nibble = Q4_NIBBLES[i];
                    float d = Float.float16ToFloat(Float.floatToFloat16(Q4_SCALES[i / 32]));
                    float want = nibble == 8 ? 0.0f : d * (nibble - 8);
                    assertEquals(want, dn[i], "q4 element " + i);
                    if (dn[i] == 0.0f) zeros++;
                }
                assertTrue(zeros >= dn.length / 5);
                Tensor raw = m.tensors().get(2);
                assertEquals(DType.U8, raw.dtype());
                assertEquals(HIDDEN * 34, raw.sizeBytes());

                List<LayerLabel> labels = LayerLabels.of(m);
                assertEquals(new LayerLabel(0, "q", -1, null), labels.get(1));
                assertEquals(new LayerLabel(0, "gate", -1, null), labels.get(2));
                assertEquals(new LayerLabel(0, "down", -1, null), labels.get(3));
                assertEquals("head", labels.get(4).role());
                assertNull(labels.get(0).disagreement());
            }
        }
    }

    @Test
    void stackedExpertsAreOneLayerOfEveryExpertsRows() throws IOException {
        GgufWriter w = llama().u32("llama.expert_count", 2).tensor("blk.0.ffn_up_exps.weight", new long[] {HIDDEN, FFN, 2}, 0,
                GgufWriter.f32(new float[HIDDEN * FFN * 2]));
        try (Model m = Models.open(write("moe.gguf", w.bytes()))) {
            GemmLayer up = m.layers().get(m.layers().size() - 1);
            assertEquals("blk.0.ffn_up_exps.weight", up.name());
            assertEquals(LayerKind.LINEAR, up.kind());
            assertEquals(2 * FFN, up.rows());
            assertEquals(HIDDEN, up.cols());
            assertEquals(new LayerLabel(0, "up", -1, null), LayerLabels.of(m).get(m.layers().size() - 1));
        }
    }

    @Test
    void aGgufWhoseCountsOffsetsOrDimsLieIsOneLine() throws IOException {
        byte[] good = llama().bytes();
        GgufWriter w = llama();
        w.tensorCountOverride = 1L << 40;
        assertFault(write("count.gguf", w.bytes()), "claims 1099511627776 tensor infos, more than the");
        w = llama();
        w.kvCountOverride = -1L;
        assertFault(write("kv.gguf", w.bytes()), "claims 18446744073709551615 metadata entries");
        w = llama();
        w.offsetShift = 1 << 20;
        assertFault(write("offset.gguf", w.bytes()), "needs");
        w = llama();
        w.offsetShift = 4;
        assertFault(write("misaligned.gguf", w.bytes()), "is not a multiple of the alignment 32");
        w = llama().tensor("blk.0.attn_k.weight", new long[] {HIDDEN, 1L << 30}, 0, new byte[64]);
        assertFault(write("dims.gguf", w.bytes()), "tensor 'blk.0.attn_k.weight' F32[32, 1073741824] at offset");
        w = llama().tensor("x", new long[] {1L << 62, 1L << 62}, 0, new byte[4]);
        assertFault(write("huge.gguf", w.bytes()), "impossible dims");
        w = llama().tensor("x", new long[] {2, 2, 2, 2, 2}, 0, new byte[128]);
        assertFault(write("rank.gguf", w.bytes()), "rank 5");
        w = llama().tensor("x", new long[] {2}, 99, new byte[4]);
        assertFault(write("type.gguf", w.bytes()), "unknown ggml type 99");
        w = llama().tensor("x", new long[] {20, 2}, 8, new byte[68]);
        assertFault(write("blocks.gguf", w.bytes()), "not whole 32-element blocks");
        w = llama().u32("general.alignment", 24);
        assertFault(write("align.gguf", w.bytes()), "general.alignment 24 is not a power of two");
        w = llama();
        w.version = 1;
        assertFault(write("v1.gguf", w.bytes()), "GGUF version 1");
        assertFault(write("cut.gguf", Arrays.copyOf(good, 200)), "truncated at byte");
        assertFault(write("magic.gguf", "GGML".repeat(10).getBytes()), "no GGUF magic");
        byte[] longString = good.clone();
        longString[24 + 7] = 0x7f; // the first key's u64 length, top byte
        assertFault(write("string.gguf", longString), "metadata key claims");
    }
}
