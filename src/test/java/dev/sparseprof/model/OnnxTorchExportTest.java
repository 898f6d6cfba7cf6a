package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxFiles.FLOAT;
import static dev.sparseprof.model.OnnxFiles.intAttribute;
import static dev.sparseprof.model.OnnxFiles.node;
import static dev.sparseprof.model.OnnxFiles.rawTensor;
import static dev.sparseprof.model.OnnxReaderTest.a;
import static dev.sparseprof.model.OnnxReaderTest.randomWeights;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.util.DType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real torch.onnx exports of one module (src/test/resources/onnx-export/generate.py, torch 2.13.0):
 * TorchScript with and without constant folding, and dynamo. Without constant folding the recurrent weights reach LSTM/GRU through PyTorch's gate reorder (a
 * bidirectional GRU's from two tensors) and the Linear through a Transpose; torch's own folding of
 * the same graph is the oracle: every layer element-equal, under the checkpoint's names.
 */
class OnnxTorchExportTest {
    static final Path DIR = Path.of("src/test/resources/onnx-export");

    @TempDir Path dir;

    @Test
    void theUnfoldedExportReadsTheLayersTorchsConstantFoldingGives() throws IOException {
        try (Model folded = Models.open(DIR.resolve("rnn-folded.onnx")); Model unfolded = Models.open(DIR.resolve("rnn-unfolded.onnx"))) {
            assertEquals(23, folded.layers().size());
            assertEquals(folded.layers().size(), unfolded.layers().size());
            for (int i = 0; i < folded.layers().size(); i++) {
                GemmLayer f = folded.layers().get(i);
                GemmLayer u = unfolded.layers().get(i);
                assertArrayEquals(f.matrix().toDense(), u.matrix().toDense(), f.name() + " vs " + u.name());
            }
            for (Model m : List.of(folded, unfolded)) {
                // x [2, 7] -> Gather (embedding) [2, 7, 16] -> Transpose [7, 2, 16] -> LSTM; its Y -> Squeeze -> GRU
                assertEquals(5, m.layers().get(1).columnsPerSample(), "Conv1d k = 3 over 7 positions");
                assertEquals(7, m.layers().get(2).columnsPerSample(), "the LSTM's sequence length");
                assertEquals(7, m.layers().get(10).columnsPerSample(), "the GRU's, through the LSTM's output and a Squeeze");
            }
            List<String> names = unfolded.layers().stream().map(GemmLayer::name).toList();
            assertEquals(List.of("lstm.weight_ih_l0.i", "lstm.weight_ih_l0.o", "lstm.weight_ih_l0.f", "lstm.weight_ih_l0.c"), names.subList(2, 6));
            assertEquals(List.of("gru.weight_ih_l0.z", "gru.weight_ih_l0.r", "gru.weight_ih_l0.h", "gru.weight_ih_l0_reverse.z"), names.subList(10, 14));
            assertEquals("fc.weight", names.get(22));
            assertEquals("gru.weight_ih_l0_reverse", unfolded.layers().get(13).tensorName(), "pruning writes into the reverse direction's own tensor");
        }
    }

    @Test
    void theDynamoExportNamesItsFoldedWeightsAfterTheirModules() throws IOException {
        try (Model folded = Models.open(DIR.resolve("rnn-folded.onnx")); Model dynamo = Models.open(DIR.resolve("rnn-dynamo.onnx"))) {
            assertEquals(folded.layers().size(), dynamo.layers().size());
            for (int i = 0; i < folded.layers().size(); i++) {
                assertArrayEquals(folded.layers().get(i).matrix().toDense(), dynamo.layers().get(i).matrix().toDense(), dynamo.layers().get(i).name());
            }
            List<String> names = dynamo.layers().stream().map(GemmLayer::name).toList();
            // val_41 (the folded, gate-reordered weight_ih_l0) under its node's namespace module "lstm"
            assertEquals(List.of("emb.weight", "conv.weight", "lstm.W.i"), names.subList(0, 3));
            assertEquals("gru.R.reverse.h", names.get(21));
            assertEquals("fc", names.get(22));
        }
        assertEquals("blocks.0.proj.2", OnnxNode.moduleOf(": __main__.Top/blocks.0: __main__.Block/blocks.0.proj: torch.nn.modules.container.Sequential"
                + "/blocks.0.proj.2: torch.nn.modules.linear.Linear/linear_1: aten.linear.default"));
        assertEquals("", OnnxNode.moduleOf(": __main__.Net/add: aten.add.Tensor"));
        assertEquals("", OnnxNode.moduleOf("no segments"));
    }

    /**
     * onnxruntime 1.30's quantize_static of a Linear/Conv/ConvTranspose module, QDQ (per channel) and
     * QOperator (QLinearConv, QGemm): every weight is a layer with its output pixels, and dequantized
     * within half a quantization step of the float export's weight (the step at most max|W| / 127).
     * Before, the QDQ model had no layer and the QOperator one only its float ConvTranspose.
     */
    @Test
    void quantizedExportsInBothOnnxruntimeFormatsDequantizeToTheirFloatWeights() throws IOException {
        try (Model f = Models.open(DIR.resolve("mlp-float.onnx"))) {
            Map<String, GemmLayer> reference = new HashMap<>();
            for (GemmLayer l : f.layers()) reference.put(l.tensorName(), l);
            for (String q : List.of("mlp-qdq.onnx", "mlp-qop.onnx")) {
                try (Model m = Models.open(DIR.resolve(q))) {
                    assertEquals(4, m.layers().size(), q + ": " + m.layers());
                    for (GemmLayer l : m.layers()) {
                        GemmLayer r = reference.get(l.tensorName().replace("_quantized", ""));
                        assertEquals(r.rows(), l.rows(), q + " " + l.name());
                        assertEquals(r.columnsPerSample(), l.columnsPerSample(), q + " " + l.name() + " pixels");
                        float[] want = r.matrix().toDense();
                        float[] got = l.matrix().toDense();
                        float max = 0;
                        for (float v : want) max = Math.max(max, Math.abs(v));
                        for (int i = 0; i < want.length; i++) {
                            assertEquals(want[i], got[i], max / 127 * 0.51 + 1e-6, q + " " + l.name() + " element " + i);
                        }
                    }
                    assertEquals(256, m.layers().stream().filter(l -> l.tensorName().startsWith("c.")).findFirst().orElseThrow().columnsPerSample(),
                            q + ": the 3x3 conv's 16x16 output pixels");
                }
            }
        }
    }

    /**
     * onnxruntime 1.30's float16 conversion with MatMul and Gemm kept in fp32 ({@code op_block_list}):
     * the Gemm weights reach their op through a {@code Cast} (before: both layers missing), the
     * convolutions' are fp16 initializers. Every layer equals the float export's weight, exactly for
     * the fp32 ones and within fp16 rounding for the rest, and the stored dtype is each one's own.
     */
    @Test
    void aFloat16ConversionWithBlockedGemmsKeepsTheWeightsItCastsBack() throws IOException {
        try (Model f = Models.open(DIR.resolve("mlp-float.onnx")); Model m = Models.open(DIR.resolve("mlp-fp16-blocked.onnx"))) {
            Map<String, GemmLayer> reference = new HashMap<>();
            for (GemmLayer l : f.layers()) reference.put(l.tensorName(), l);
            assertEquals(4, m.layers().size(), m.layers().toString());
            for (GemmLayer l : m.layers()) {
                GemmLayer r = reference.get(l.tensorName());
                boolean gemm = l.tensorName().startsWith("a.") || l.tensorName().startsWith("b.");
                assertEquals(gemm ? DType.F32 : DType.F16, l.storedDType(), l.name());
                assertEquals(r.rows(), l.rows(), l.name());
                assertEquals(r.columnsPerSample(), l.columnsPerSample(), l.name() + " pixels");
                float[] want = r.matrix().toDense();
                float[] got = l.matrix().toDense();
                for (int i = 0; i < want.length; i++) {
                    float tolerance = gemm ? 0 : Math.abs(want[i]) / 1024 + 1e-7f; // fp16: 10 mantissa bits
                    assertEquals(want[i], got[i], tolerance, l.name() + " element " + i);
                }
            }
        }
    }

    /**
     * onnxruntime 1.30's int4 weight-only quantization (com.microsoft MatMulNBits, block 32) of a Linear,
     * symmetric and with packed zero points: the layer (missing before) equals an independent numpy
     * decode of the spec's {@code (code - zero_point)·scale} (its non-zero count, sum and absolute sum,
     * computed with the generator's tools), and lies within one step (at most 2·max|W| / 15; the
     * symmetric form clips +max to 7/8 of it) of the float weight.
     */
    @Test
    void int4MatMulNBitsWeightsDequantizeToTheirFloatWeights() throws IOException {
        try (Model f = Models.open(DIR.resolve("linear-float.onnx"))) {
            float[] want = f.layers().get(0).matrix().toDense();
            float max = 0;
            for (float v : want) max = Math.max(max, Math.abs(v));
            String[] files = {"linear-int4.onnx", "linear-int4-zp.onnx"};
            long[] nonZeros = {1451, 1449};
            double[] sums = {2.635016892105341, 2.5162428691983223};
            double[] absSums = {96.37459231540561, 97.26218871586025};
            // 16 packed bytes and an fp32 scale per 32 weights; the second adds a 4-bit zero point per block, one byte per row of 2 blocks
            double[] bits = {(16 + 4) * 8 / 32.0, (16 + 4) * 8 / 32.0 + 8.0 / 64};
            for (int q = 0; q < files.length; q++) {
                try (Model m = Models.open(DIR.resolve(files[q]))) {
                    assertEquals(1, m.layers().size(), files[q]);
                    GemmLayer l = m.layers().get(0);
                    assertEquals(24, l.rows());
                    assertEquals(64, l.cols());
                    float[] got = l.matrix().toDense();
                    for (int i = 0; i < want.length; i++) assertEquals(want[i], got[i], 2 * max / 15 + 1e-6, files[q] + " element " + i);
                    Checksum c = Checksum.of(got);
                    assertEquals(nonZeros[q], c.nonZeros(), files[q]);
                    assertEquals(sums[q], c.sum(), 1e-9, files[q]);
                    assertEquals(absSums[q], c.absSum(), 1e-9, files[q]);
                    assertEquals(bits[q], l.storedBitsPerWeight(), 1e-12, files[q] + ": what a kernel reading the stored blocks moves per weight");
                }
            }
        }
    }

    @Test
    void aGemmOverATransposedWeightReadsItAsOpBSays() throws IOException {
        float[] w = randomWeights(3 * 4, 2, 0); // W [3, 4]
        for (int transB = 0; transB <= 1; transB++) {
            ProtoWriter g = new ProtoWriter().message(5, rawTensor("W", FLOAT, ProtoWriter.floatsLE(w), 3, 4))
                    .message(1, node("t", "Transpose", a("W"), a("Wt")))
                    .message(1, node("gemm", "Gemm", a("x", "Wt"), a("y"), intAttribute("transB", transB)));
            Path f = dir.resolve("gemm" + transB + ".onnx");
            Files.write(f, OnnxFiles.model(g));
            try (Model m = Models.open(f)) {
                GemmLayer l = m.layers().get(0);
                assertEquals("W", l.tensorName());
                // transB = 0: Y = X · W^T, A = W [3 x 4]; transB = 1: Y = X · W, A = W^T [4 x 3]
                assertEquals(transB == 0 ? 3 : 4, l.rows());
                float[] a = l.matrix().toDense();
                for (int r = 0; r < l.rows(); r++) {
                    for (int c = 0; c < l.cols(); c++) assertEquals(transB == 0 ? w[r * 4 + c] : w[c * 4 + r], a[r * l.cols() + c]);
                }
            }
        }
    }
}
