package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxFiles.FLOAT;
import static dev.sparseprof.model.OnnxFiles.floatTensor;
import static dev.sparseprof.model.OnnxFiles.intAttribute;
import static dev.sparseprof.model.OnnxFiles.intsAttribute;
import static dev.sparseprof.model.OnnxFiles.node;
import static dev.sparseprof.model.OnnxFiles.rawTensor;
import static dev.sparseprof.model.OnnxFiles.tensorAttribute;
import static dev.sparseprof.model.OnnxFiles.valueInfo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ONNX files written by the tests: a convolutional graph whose weights all sit in Constant nodes, external data, hostile and corrupt files. */
class OnnxReaderTest {
    @TempDir Path dir;

    static float[] randomWeights(int n, long seed, double zeroFraction) {
        Random r = new Random(seed);
        float[] w = new float[n];
        for (int i = 0; i < n; i++) w[i] = r.nextDouble() < zeroFraction ? 0.0f : (float) r.nextGaussian();
        return w;
    }

    static String[] a(String... s) {
        return s;
    }

    /** X[1,3,8,8] -> Conv(4x3x3x3, pad 1) -> Relu -> Conv(8x4x3x3, stride 2, pad 1) -> Flatten -> Gemm(transB) -> MatMul. */
    static byte[] convGraph(float[] w1, float[] w2, float[] w3, float[] w4) {
        ProtoWriter g = new ProtoWriter();
        g.message(1, node("c1", "Constant", a(), a("w1"), tensorAttribute("value", floatTensor("w1", false, w1, 4, 3, 3, 3))));
        g.message(1, node("c2", "Constant", a(), a("w2"), tensorAttribute("value", floatTensor("w2", true, w2, 8, 4, 3, 3))));
        g.message(1, node("c3", "Constant", a(), a("w3"), tensorAttribute("value", rawTensor("w3", FLOAT, ProtoWriter.floatsLE(w3), 10, 128))));
        g.message(1, node("c4", "Constant", a(), a("onnx::MatMul_7"), tensorAttribute("value", rawTensor("", FLOAT, ProtoWriter.floatsLE(w4), 10, 5))));
        g.message(1, node("/conv1/Conv", "Conv", a("x", "w1"), a("y1"), intsAttribute("pads", 1, 1, 1, 1), intsAttribute("kernel_shape", 3, 3)));
        g.message(1, node("/relu", "Relu", a("y1"), a("r1")));
        g.message(1, node("/conv2/Conv", "Conv", a("r1", "w2"), a("y2"), intsAttribute("pads", 1, 1, 1, 1), intsAttribute("strides", 2, 2)));
        g.message(1, node("/flatten", "Flatten", a("y2"), a("f")));
        g.message(1, node("/fc/Gemm", "Gemm", a("f", "w3"), a("y3"), intAttribute("transB", 1)));
        g.message(1, node("/head/MatMul", "MatMul", a("y3", "onnx::MatMul_7"), a("out")));
        g.string(2, "tiny-cnn");
        g.message(11, valueInfo("x", 1, 3, 8, 8));
        g.message(12, valueInfo("out", 1, 5));
        return OnnxFiles.model(g);
    }

    @Test
    void convolutionalGraphWithConstantWeightsGivesConvAndLinearLayers() throws IOException {
        float[] w1 = randomWeights(4 * 27, 1, 0.5);
        float[] w2 = randomWeights(8 * 36, 2, 0.0);
        float[] w3 = randomWeights(10 * 128, 3, 0.9);
        float[] w4 = randomWeights(50, 4, 0.0);
        Path file = dir.resolve("tiny.onnx");
        Files.write(file, convGraph(w1, w2, w3, w4));
        try (Model m = Models.open(file)) {
            assertEquals("onnx", m.format());
            assertEquals(4, m.layers().size(), m.layers().toString());
            GemmLayer c1 = m.layers().get(0);
            assertEquals(LayerKind.CONV, c1.kind());
            assertEquals("w1", c1.name());
            assertEquals(4, c1.rows());
            assertEquals(27, c1.cols());
            assertEquals(64, c1.columnsPerSample(), "8x8 output pixels (pad 1)");
            assertArrayEquals(w1, c1.matrix().toDense());
            GemmLayer c2 = m.layers().get(1);
            assertEquals(36, c2.cols());
            assertEquals(16, c2.columnsPerSample(), "4x4 output pixels (stride 2)");
            assertArrayEquals(w2, c2.matrix().toDense());
            GemmLayer fc = m.layers().get(2);
            assertEquals(LayerKind.LINEAR, fc.kind());
            assertEquals(10, fc.rows());
            assertEquals(128, fc.cols());
            assertArrayEquals(w3, fc.matrix().toDense(), "Gemm transB=1 stores [out, in] = A");
            GemmLayer head = m.layers().get(3);
            assertEquals("/head/MatMul", head.name(), "anonymous tensor named by its consumer");
            assertEquals(5, head.rows());
            assertEquals(10, head.cols());
            float[] dense = head.matrix().toDense();
            for (int r = 0; r < 5; r++) for (int k = 0; k < 10; k++) assertEquals(w4[k * 5 + r], dense[r * 10 + k]);
        }
    }

    @Test
    void externalDataInsideTheFolderIsRead() throws IOException {
        float[] w = randomWeights(12, 5, 0.3);
        byte[] data = new byte[16 + 48];
        System.arraycopy(ProtoWriter.floatsLE(w), 0, data, 16, 48);
        Files.createDirectories(dir.resolve("data"));
        Files.write(dir.resolve("data/weights.bin"), data);
        Path file = dir.resolve("ext.onnx");
        Files.write(file, externalModel("data/weights.bin", 16, 48));
        try (Model m = Models.open(file)) {
            assertEquals(1, m.layers().size());
            GemmLayer l = m.layers().get(0);
            assertEquals(3, l.rows());
            float[] d = l.matrix().toDense();
            for (int r = 0; r < 3; r++) for (int k = 0; k < 4; k++) assertEquals(w[k * 3 + r], d[r * 4 + k]);
        }
    }

    static byte[] externalModel(String location, long offset, long length) {
        ProtoWriter g = new ProtoWriter();
        g.message(1, node("/fc/MatMul", "MatMul", a("x", "W"), a("y")));
        g.message(5, OnnxFiles.externalTensor("W", location, offset, length, 4, 3));
        return OnnxFiles.model(g);
    }

    @Test
    void externalDataLeavingTheFolderIsRefused() throws IOException {
        Path inner = Files.createDirectories(dir.resolve("model"));
        Path outside = dir.resolve("secret.bin");
        Files.write(outside, new byte[48]);
        Files.createSymbolicLink(inner.resolve("link.bin"), outside);
        for (String location : new String[] {"../secret.bin", outside.toString(), "link.bin", "sub/../../secret.bin"}) {
            Path file = inner.resolve("hostile.onnx");
            Files.write(file, externalModel(location, 0, 48));
            ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.open(file), location);
            assertTrue(e.getMessage().startsWith(file.toString()) && e.getMessage().contains("refusing"), e.getMessage());
        }
    }

    @Test
    void externalRangesBeyondTheFileAreErrors() throws IOException {
        Files.write(dir.resolve("w.bin"), new byte[40]);
        Path file = dir.resolve("short.onnx");
        Files.write(file, externalModel("w.bin", 0, 48));
        assertFault(file, "outside");
        Files.write(file, externalModel("w.bin", 0, 40));
        assertFault(file, "needs 48 bytes");
    }

    @Test
    void truncatedCorruptAndLyingFilesAreOneLineErrors() throws IOException {
        byte[] good = convGraph(randomWeights(108, 1, 0), randomWeights(288, 2, 0), randomWeights(1280, 3, 0), randomWeights(50, 4, 0));
        Path file = dir.resolve("bad.onnx");
        for (int cut : new int[] {good.length / 2, good.length - 3, 7}) {
            Files.write(file, Arrays.copyOf(good, cut));
            assertFault(file, "");
        }
        Files.write(file, new byte[0]);
        assertFault(file, "empty");
        byte[] garbage = new byte[1024];
        new Random(9).nextBytes(garbage);
        Files.write(file, garbage);
        assertFault(file, "");
        // A raw_data length prefix claiming far more than the file holds (a 100 MB claim in a small file).
        ProtoWriter g = new ProtoWriter();
        byte[] lying = OnnxFiles.model(g.message(5, rawTensor("w", FLOAT, new byte[16], 2, 2)));
        int at = indexOf(lying, new byte[] {0x4a, 16}); // raw_data key (9<<3|2) then length 16
        byte[] patched = new byte[lying.length + 3];
        System.arraycopy(lying, 0, patched, 0, at + 1);
        patched[at + 1] = (byte) 0x80;
        patched[at + 2] = (byte) 0xc2;
        patched[at + 3] = (byte) 0xd7;
        patched[at + 4] = 0x2f; // 100,000,000 as a varint
        System.arraycopy(lying, at + 2, patched, at + 5, lying.length - at - 2);
        Files.write(file, patched);
        assertFault(file, "claims");
        // dims that disagree with the bytes
        Files.write(file, OnnxFiles.model(new ProtoWriter().message(5, rawTensor("w", FLOAT, new byte[12], 2, 2))));
        assertFault(file, "needs 16 bytes");
        Files.write(file, OnnxFiles.model(new ProtoWriter().message(5, floatTensor("w", true, new float[3], 2, 2))));
        assertFault(file, "3 values");
        Files.write(file, OnnxFiles.model(new ProtoWriter().message(5, rawTensor("w", 99, new byte[4], 1))));
        assertFault(file, "unknown data_type 99");
    }

    @Test
    void quantizedInt8WeightsKeepTheirZeroPointExact() throws IOException {
        byte[] q = {5, 5, 7, 3, 5, 9};
        ProtoWriter g = new ProtoWriter();
        g.message(1, node("/fc/MatMul_quant", "MatMulInteger", a("xq", "W_quantized", "xz", "W_zero_point"), a("y")));
        g.message(5, rawTensor("W_quantized", OnnxFiles.INT8, q, 3, 2));
        g.message(5, rawTensor("W_zero_point", OnnxFiles.INT8, new byte[] {5}));
        g.message(5, floatTensor("W_scale", true, new float[] {0.5f}));
        Path file = dir.resolve("q.onnx");
        Files.write(file, OnnxFiles.model(g));
        try (Model m = Models.open(file)) {
            GemmLayer l = m.layers().get(0);
            assertEquals(2, l.rows());
            assertEquals(3, l.cols());
            assertArrayEquals(new float[] {0.0f, 1.0f, 0.0f, 0.0f, -1.0f, 2.0f}, l.matrix().toDense());
            Tensor w = m.tensors().stream().filter(t -> t.name().equals("W_quantized")).findFirst().orElseThrow();
            assertEquals(5, w.zeroPoint());
            assertEquals(0.5, w.scale());
            assertTrue(w.isZero(0));
            assertEquals(1.0f, w.getFloat(2));
        }
    }

    @Test
    void typedFieldsOfEveryKindDecode() throws IOException {
        ProtoWriter g = new ProtoWriter();
        ProtoWriter half = new ProtoWriter().packedVarints(1, 2).varint(2, 10).string(8, "h");
        half.varint(5, Float.floatToFloat16(1.5f) & 0xffff).varint(5, Float.floatToFloat16(-2f) & 0xffff); // int32_data, unpacked
        ProtoWriter longs = new ProtoWriter().packedVarints(1, 3).varint(2, 7).string(8, "i").packedVarints(7, 1, -1, 1L << 40);
        ByteBuffer d = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putDouble(0.25).putDouble(-8);
        ProtoWriter doubles = new ProtoWriter().packedVarints(1, 2).varint(2, 11).string(8, "d").bytes(10, d.array());
        ProtoWriter bf16 = new ProtoWriter().packedVarints(1, 1).varint(2, 16).string(8, "b").packedVarints(5, Float.floatToIntBits(3.0f) >>> 16);
        g.message(5, half).message(5, longs).message(5, doubles).message(5, bf16);
        Path file = dir.resolve("typed.onnx");
        Files.write(file, OnnxFiles.model(g));
        try (Model m = Models.open(file)) {
            Map<String, Tensor> t = new HashMap<>();
            for (Tensor x : m.tensors()) t.put(x.name(), x);
            assertEquals(1.5f, t.get("h").getFloat(0));
            assertEquals(-2f, t.get("h").getFloat(1));
            assertEquals(-1, t.get("i").rawLong(1));
            assertEquals(1L << 40, t.get("i").rawLong(2));
            assertEquals(-8f, t.get("d").getFloat(1));
            assertEquals(3.0f, t.get("b").getFloat(0));
        }
    }

    static void assertFault(Path file, String fragment) {
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.open(file).close());
        assertTrue(e.getMessage().startsWith(file.toString() + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'), "one line");
    }

    static void assertFaultOf(org.junit.jupiter.api.function.Executable run, String fragment) {
        SparseprofException e = assertThrows(SparseprofException.class, run);
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return i;
        }
        throw new AssertionError("pattern not found");
    }
}
