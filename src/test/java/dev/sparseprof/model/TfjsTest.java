package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sparseprof.util.DType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TfjsTest {
    /** Installed by test.sh: {@code npm install --prefix target/npm @vladmandic/face-api}. */
    static final Path FACE_API = Path.of("target/npm/node_modules/@vladmandic/face-api/model");

    @TempDir Path dir;

    @Test
    void realFaceApiManifestsLoadWithConvLayers() throws IOException {
        assumeTrue(Files.isDirectory(FACE_API), "face-api not installed (test.sh installs it into target/npm)");
        List<Path> manifests;
        try (Stream<Path> s = Files.list(FACE_API)) {
            manifests = s.filter(p -> p.getFileName().toString().endsWith("-weights_manifest.json")).sorted().toList();
        }
        assertEquals(7, manifests.size(), manifests.toString());
        for (Path manifest : manifests) {
            try (Model m = Models.open(manifest)) {
                long conv = m.layers().stream().filter(l -> l.kind() == LayerKind.CONV).count();
                assertTrue(conv >= 3, manifest + ": " + conv + " conv layers");
                for (GemmLayer l : m.layers()) {
                    float[] row = new float[l.cols()];
                    l.matrix().copyRow(l.rows() - 1, row, 0);
                    for (float v : row) assertTrue(Float.isFinite(v) && Math.abs(v) < 1e3, manifest + " " + l.name() + ": " + v);
                }
            }
        }
        try (Model tiny = Models.open(FACE_API.resolve("tiny_face_detector_model-weights_manifest.json"))) {
            GemmLayer conv0 = tiny.layers().get(0);
            assertEquals("conv0/filters", conv0.name());
            assertEquals(DType.U8, conv0.storedDType(), "uint8-quantized in the file");
            assertEquals(DType.U8, tiny.storedWeightDType());
            GemmLayer dw = tiny.layers().get(1);
            assertTrue(dw.depthwise(), dw.name());
            assertEquals(16, dw.groups());
            assertEquals(16, conv0.rows(), "HWIO [3,3,3,16]: 16 output channels");
            assertEquals(27, conv0.cols());
        }
    }

    @Test
    void tfjsFiltersRewrittenInPytorchOrderReadBackAsTheSameLayers() throws IOException {
        assumeTrue(Files.isDirectory(FACE_API), "face-api not installed (test.sh installs it into target/npm)");
        Path copy = dir.resolve("tiny.safetensors");
        try (Model tiny = Models.open(FACE_API.resolve("tiny_face_detector_model-weights_manifest.json"))) {
            assertArrayEquals(new long[] {16, 3, 3, 3}, WeightShapes.pytorchOrder(tiny, tiny.layers().get(0)));
            assertArrayEquals(new long[] {16, 1, 3, 3}, WeightShapes.pytorchOrder(tiny, tiny.layers().get(1)), "depthwise");
            List<Tensor> tensors = new ArrayList<>();
            for (GemmLayer l : tiny.layers()) tensors.add(Tensor.ofFloats(l.name(), WeightShapes.pytorchOrder(tiny, l), l.matrix().toDense()));
            SafetensorsWriter.write(copy, tensors, Map.of());
            try (Model back = Models.open(copy)) {
                assertEquals(tiny.layers().size(), back.layers().size());
                for (int i = 0; i < back.layers().size(); i++) {
                    GemmLayer a = tiny.layers().get(i);
                    GemmLayer b = back.layers().get(i);
                    assertEquals(LayerKind.CONV, b.kind());
                    assertEquals(a.rows(), b.rows());
                    assertArrayEquals(a.matrix().toDense(), b.matrix().toDense(), a.name());
                }
            }
        }
    }

    @Test
    void inputSizeGivesEachConvItsOutputPixelsThroughTheKerasTopology() throws IOException {
        // 16x16 -> Conv2D 3x3 stride 2 same (8x8) -> DepthwiseConv2D 3x3 valid (6x6) -> MaxPooling2D 2 (3x3) -> Conv2D 1x1 (3x3)
        float[] w = new float[3 * 3 * 3 * 4 + 3 * 3 * 4 * 1 + 4 * 8];
        for (int i = 0; i < w.length; i++) w[i] = (i % 7) - 3;
        Files.write(dir.resolve("w.bin"), ProtoWriter.floatsLE(w));
        String layers = "[{\"class_name\":\"InputLayer\",\"config\":{\"name\":\"in\"}},"
                + "{\"class_name\":\"Conv2D\",\"config\":{\"name\":\"c0\",\"kernel_size\":[3,3],\"strides\":[2,2],\"padding\":\"same\"}},"
                + "{\"class_name\":\"DepthwiseConv2D\",\"config\":{\"name\":\"dw\",\"kernel_size\":[3,3],\"strides\":[1,1],\"padding\":\"valid\"}},"
                + "{\"class_name\":\"MaxPooling2D\",\"config\":{\"name\":\"pool\",\"pool_size\":[2,2],\"padding\":\"valid\"}},"
                + "{\"class_name\":\"Conv2D\",\"config\":{\"name\":\"c1\",\"kernel_size\":[1,1],\"strides\":[1,1],\"padding\":\"valid\"}}]";
        String json = "{\"modelTopology\":{\"model_config\":{\"class_name\":\"Sequential\",\"config\":{\"layers\":" + layers + "}}},"
                + "\"weightsManifest\":[{\"paths\":[\"w.bin\"],\"weights\":["
                + "{\"name\":\"c0/kernel\",\"shape\":[3,3,3,4],\"dtype\":\"float32\"},"
                + "{\"name\":\"dw/depthwise_kernel\",\"shape\":[3,3,4,1],\"dtype\":\"float32\"},"
                + "{\"name\":\"c1/kernel\",\"shape\":[1,1,4,8],\"dtype\":\"float32\"}]}]}";
        Path file = dir.resolve("model.json");
        Files.writeString(file, json);
        try (Model m = Models.open(file, new ReadOptions(Map.of(), new long[] {16, 16}))) {
            assertEquals(List.of(64L, 36L, 9L), m.layers().stream().map(GemmLayer::columnsPerSample).toList());
            assertTrue(m.layers().get(1).depthwise());
        }
        try (Model m = Models.open(file)) {
            assertEquals(List.of(1L, 1L, 1L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "no --input-size: N = batch");
        }
        // a topology that states its input (Keras' batch_input_shape, here [null, 16, 16, 3]): followed without --input-size, and over one
        Path stated = dir.resolve("stated.json");
        Files.writeString(stated, json.replace("{\"name\":\"in\"}", "{\"name\":\"in\",\"batch_input_shape\":[null,16,16,3]}"));
        try (Model m = Models.open(stated)) {
            assertEquals(List.of(64L, 36L, 9L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "the stated 16x16");
        }
        try (Model m = Models.open(stated, new ReadOptions(Map.of(), new long[] {32, 32}))) {
            assertEquals(List.of(64L, 36L, 9L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "the stated size is the model's");
        }
        Files.writeString(stated, json.replace("{\"name\":\"in\"}", "{\"name\":\"in\",\"batch_input_shape\":[null,null,null,3]}"));
        try (Model m = Models.open(stated)) {
            assertEquals(List.of(1L, 1L, 1L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "open sizes: N = batch");
        }
        Path manifest = dir.resolve("bare-weights_manifest.json");
        Files.writeString(manifest, json.substring(json.indexOf("\"weightsManifest\":") + "\"weightsManifest\":".length(), json.length() - 1));
        ModelFormatException e = org.junit.jupiter.api.Assertions.assertThrows(ModelFormatException.class,
                () -> Models.open(manifest, new ReadOptions(Map.of(), new long[] {416, 416})).close());
        assertTrue(e.getMessage().contains("--input-size needs the model's graph, and a bare weights manifest has none"), e.getMessage());
    }

    @Test
    void uint8AffineQuantizationKeepsZerosExactAndSpansShards() throws IOException {
        // scale 0.5, min -1.0: code 2 is exactly zero; min -0.9999999 leaves a residue that is snapped.
        byte[] codes = {0, 2, 4, 2, 1, 3};
        Files.write(dir.resolve("a.bin"), new byte[] {codes[0], codes[1], codes[2], codes[3]});
        Files.write(dir.resolve("b.bin"), new byte[] {codes[4], codes[5], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        String manifest = "[{\"paths\":[\"a.bin\",\"b.bin\"],\"weights\":["
                + "{\"name\":\"dense/kernel\",\"shape\":[3,2],\"dtype\":\"float32\",\"quantization\":{\"dtype\":\"uint8\",\"scale\":0.5,\"min\":-0.9999999}},"
                + "{\"name\":\"dense/bias\",\"shape\":[3],\"dtype\":\"float32\"}]}]";
        Path file = dir.resolve("m-weights_manifest.json");
        Files.writeString(file, manifest);
        try (Model m = Models.open(file)) {
            assertEquals(1, m.layers().size());
            GemmLayer l = m.layers().get(0);
            assertEquals(2, l.rows(), "Dense kernel [in, out]: A has out rows");
            float[] d = l.matrix().toDense();
            // stored [in=3, out=2]: codes (0,2),(4,2),(1,3) -> values (-1,0),(1,0),(-0.5,0.5)
            assertArrayEquals(new float[] {-0.9999999f, 1.0000001f, -0.4999999f, 0, 0, 0.5000001f}, d, 1e-6f);
            assertEquals(0.0f, d[3]);
            assertEquals(0.0f, d[4]);
        }
        assertEquals(-1, TfjsQuantization.zeroCode(0.5, 0.3, 255), "zero below the range: no zero code");
        assertEquals(2, TfjsQuantization.zeroCode(0.5, -1.0, 255));
    }

    @Test
    void hostileAndLyingManifestsAreRefused() throws IOException {
        Files.write(dir.resolve("w.bin"), new byte[4]);
        Path file = dir.resolve("x-weights_manifest.json");
        Files.writeString(file, "[{\"paths\":[\"../w.bin\"],\"weights\":[]}]");
        assertFault(file, "refusing");
        Files.writeString(file, "[{\"paths\":[\"/etc/hostname\"],\"weights\":[]}]");
        assertFault(file, "refusing absolute");
        Files.writeString(file, "[{\"paths\":[\"w.bin\"],\"weights\":[{\"name\":\"k\",\"shape\":[100,100],\"dtype\":\"float32\"}]}]");
        assertFault(file, "shard w.bin holds 4 bytes");
        Files.writeString(file, "[{\"paths\":[\"w.bin\"],\"weights\":[{\"name\":\"k\",\"shape\":[1],\"dtype\":\"complex64\"}]}]");
        assertFault(file, "unsupported");
        Files.writeString(file, "{\"modelTopology\":{}}");
        assertFault(file, "no weightsManifest");
        Files.writeString(file, "[{\"paths\":[\"w.bin\"]");
        assertFault(file, "JSON");
    }

    /**
     * A graph model (TensorFlow ops, as tensorflowjs_converter writes a SavedModel) under a name of
     * its own: every weight's layer comes from the op it feeds. The shape vector of a Reshape and a
     * broadcast [1, 1, 1, 4] constant are no layers; the separable conv's depthwise filter (no
     * "depthwise" in its name) is depthwise; a transposed conv's [kh, kw, out, in] filter is the
     * GEMM [(kh, kw, out), in] and takes its op's name (the constant is anonymous); a MatMul with
     * transpose_b reads its [out, in] weight as stored.
     */
    @Test
    void graphModelsUnderAnyNameGiveLayersByTheOpsTheirWeightsFeed() throws IOException {
        float[] w = new float[3 * 3 * 4 * 1 + 1 * 1 * 4 * 8 + 2 * 2 * 6 * 8 + 4 + 5 * 8 + 2]; // the last 8 bytes: the int32 shape
        for (int i = 0; i < w.length; i++) w[i] = (i % 5) - 2;
        Files.write(dir.resolve("pose.bin"), ProtoWriter.floatsLE(w));
        String nodes = "[{\"name\":\"input\",\"op\":\"Placeholder\"},"
                + "{\"name\":\"sep/separable_conv2d/ReadVariableOp\",\"op\":\"Const\"},"
                + "{\"name\":\"sep/separable_conv2d/ReadVariableOp_1\",\"op\":\"Const\"},"
                + "{\"name\":\"Const_7\",\"op\":\"Const\"},"
                + "{\"name\":\"scale\",\"op\":\"Const\"},"
                + "{\"name\":\"head/dense/kernel\",\"op\":\"Const\"},"
                + "{\"name\":\"Reshape/shape\",\"op\":\"Const\"},"
                + "{\"name\":\"sep/dw\",\"op\":\"DepthwiseConv2dNative\",\"input\":[\"input\",\"sep/separable_conv2d/ReadVariableOp\"]},"
                + "{\"name\":\"sep/pw\",\"op\":\"_FusedConv2D\",\"input\":[\"sep/dw\",\"sep/separable_conv2d/ReadVariableOp_1:0\",\"^input\"]},"
                + "{\"name\":\"up/conv2d_transpose\",\"op\":\"Conv2DBackpropInput\",\"input\":[\"Reshape/shape\",\"Const_7\",\"sep/pw\"]},"
                + "{\"name\":\"mul\",\"op\":\"Mul\",\"input\":[\"up/conv2d_transpose\",\"scale\"]},"
                + "{\"name\":\"Reshape\",\"op\":\"Reshape\",\"input\":[\"mul\",\"Reshape/shape\"]},"
                + "{\"name\":\"head/MatMul\",\"op\":\"MatMul\",\"input\":[\"Reshape\",\"head/dense/kernel\"],"
                + "\"attr\":{\"transpose_b\":{\"b\":true}}}]";
        String json = "{\"format\":\"graph-model\",\"generatedBy\":\"2.x\",\"modelTopology\":{\"node\":" + nodes + "},"
                + "\"weightsManifest\":[{\"paths\":[\"pose.bin\"],\"weights\":["
                + "{\"name\":\"sep/separable_conv2d/ReadVariableOp\",\"shape\":[3,3,4,1],\"dtype\":\"float32\"},"
                + "{\"name\":\"sep/separable_conv2d/ReadVariableOp_1\",\"shape\":[1,1,4,8],\"dtype\":\"float32\"},"
                + "{\"name\":\"Const_7\",\"shape\":[2,2,6,8],\"dtype\":\"float32\"},"
                + "{\"name\":\"scale\",\"shape\":[1,1,1,4],\"dtype\":\"float32\"},"
                + "{\"name\":\"head/dense/kernel\",\"shape\":[5,8],\"dtype\":\"float32\"},"
                + "{\"name\":\"Reshape/shape\",\"shape\":[2],\"dtype\":\"int32\"}]}]}";
        Path file = dir.resolve("pose-lite.json");
        Files.writeString(file, json);
        try (Model m = Models.open(file)) {
            assertEquals(List.of("sep/separable_conv2d/ReadVariableOp", "sep/separable_conv2d/ReadVariableOp_1", "up/conv2d_transpose",
                    "head/dense/kernel"), m.layers().stream().map(GemmLayer::name).toList());
            GemmLayer dw = m.layers().get(0);
            assertTrue(dw.depthwise());
            assertEquals(4, dw.groups());
            assertEquals(4, dw.rows());
            assertEquals(9, dw.cols());
            GemmLayer pw = m.layers().get(1);
            assertEquals(8, pw.rows());
            assertEquals(4, pw.cols());
            GemmLayer up = m.layers().get(2);
            assertEquals("Const_7", up.tensorName());
            assertEquals(2 * 2 * 6, up.rows(), "[kh, kw, out, in]: rows (kh, kw, out)");
            assertEquals(8, up.cols());
            float[] row = new float[8];
            up.matrix().copyRow(1, row, 0);
            int first = 3 * 3 * 4 + 4 * 8 + 8; // Const_7's element (0, 0, 1, 0)
            for (int c = 0; c < 8; c++) assertEquals((first + c) % 5 - 2, row[c], "row 1 is the C-order row");
            GemmLayer head = m.layers().get(3);
            assertEquals(LayerKind.LINEAR, head.kind());
            assertEquals(5, head.rows(), "transpose_b: [out, in] as stored");
            assertEquals(8, head.cols());
        }
        try (Model m = Models.open(file)) {
            ModelFormatException out = org.junit.jupiter.api.Assertions.assertThrows(ModelFormatException.class,
                    () -> PrunedWriter.check(m, dir.resolve("x.safetensors")));
            assertTrue(out.getMessage().contains("cannot hold the graph"), out.getMessage());
        }
        Path config = dir.resolve("config.json");
        Files.writeString(config, "{\"hidden_size\": 384, \"num_hidden_layers\": 6}");
        assertFault(config, "unknown model format");
    }

    /**
     * --input-size through a graph model's ops: Pad, a strided VALID conv, a SAME depthwise conv, a
     * max pool, and a ResizeBilinear whose size the graph computes from Shape x 2 (Keras'
     * UpSampling2D). 16x16 -> pad 18x18 -> conv 3x3/2 VALID 8x8 -> dw 3x3 SAME 8x8 -> pool 2/2 4x4
     * -> resize 8x8 -> conv 1x1 8x8.
     */
    @Test
    void inputSizeGivesAGraphModelsConvsTheirOutputPixels() throws IOException {
        float[] filters = new float[3 * 3 * 3 * 4 + 3 * 3 * 4 * 1 + 4 * 2];
        Arrays.fill(filters, 1f);
        int[] ints = {0, 0, 1, 1, 1, 1, 0, 0, 1, 3, 1, 2};
        ByteBuffer bin = ByteBuffer.allocate(4 * (filters.length + ints.length)).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : filters) bin.putFloat(f);
        for (int v : ints) bin.putInt(v);
        Files.write(dir.resolve("cnn.bin"), bin.array());
        String same = "\"padding\":{\"s\":\"U0FNRQ==\"}";
        String valid = "\"padding\":{\"s\":\"VkFMSUQ=\"}";
        String stride2 = "\"strides\":{\"list\":{\"i\":[\"1\",\"2\",\"2\",\"1\"]}}";
        String stride1 = "\"strides\":{\"list\":{\"i\":[\"1\",\"1\",\"1\",\"1\"]}}";
        String nodes = "[{\"name\":\"x\",\"op\":\"Placeholder\",\"attr\":{\"shape\":{\"shape\":{\"dim\":["
                + "{\"size\":\"-1\"},{\"size\":\"-1\"},{\"size\":\"-1\"},{\"size\":\"3\"}]}}}},"
                + "{\"name\":\"pad\",\"op\":\"Pad\",\"input\":[\"x\",\"pad/paddings\"]},"
                + "{\"name\":\"c0\",\"op\":\"Conv2D\",\"input\":[\"pad\",\"c0/w\"],\"attr\":{" + stride2 + "," + valid + "}},"
                + "{\"name\":\"relu\",\"op\":\"Relu\",\"input\":[\"c0\"]},"
                + "{\"name\":\"dw\",\"op\":\"DepthwiseConv2dNative\",\"input\":[\"relu\",\"dw/w\"],\"attr\":{" + stride1 + "," + same + "}},"
                + "{\"name\":\"pool\",\"op\":\"MaxPool\",\"input\":[\"dw\"],\"attr\":{\"ksize\":{\"list\":{\"i\":[\"1\",\"2\",\"2\",\"1\"]}},"
                + stride2 + "," + valid + "}},"
                + "{\"name\":\"shape\",\"op\":\"Shape\",\"input\":[\"pool\"]},"
                + "{\"name\":\"hw\",\"op\":\"StridedSlice\",\"input\":[\"shape\",\"hw/begin\",\"hw/end\",\"hw/strides\"]},"
                + "{\"name\":\"size\",\"op\":\"Mul\",\"input\":[\"hw\",\"up/factor\"]},"
                + "{\"name\":\"up\",\"op\":\"ResizeBilinear\",\"input\":[\"pool\",\"size\"]},"
                + "{\"name\":\"c1\",\"op\":\"_FusedConv2D\",\"input\":[\"up\",\"c1/w\"],\"attr\":{" + stride1 + "," + same + "}}]";
        String json = "{\"format\":\"graph-model\",\"modelTopology\":{\"node\":" + nodes + "},\"weightsManifest\":[{\"paths\":[\"cnn.bin\"],\"weights\":["
                + "{\"name\":\"c0/w\",\"shape\":[3,3,3,4],\"dtype\":\"float32\"},"
                + "{\"name\":\"dw/w\",\"shape\":[3,3,4,1],\"dtype\":\"float32\"},"
                + "{\"name\":\"c1/w\",\"shape\":[1,1,4,2],\"dtype\":\"float32\"},"
                + "{\"name\":\"pad/paddings\",\"shape\":[4,2],\"dtype\":\"int32\"},"
                + "{\"name\":\"hw/begin\",\"shape\":[1],\"dtype\":\"int32\"},"
                + "{\"name\":\"hw/end\",\"shape\":[1],\"dtype\":\"int32\"},"
                + "{\"name\":\"hw/strides\",\"shape\":[1],\"dtype\":\"int32\"},"
                + "{\"name\":\"up/factor\",\"shape\":[1],\"dtype\":\"int32\"}]}]}";
        Path file = dir.resolve("cnn.json");
        Files.writeString(file, json);
        try (Model m = Models.open(file, new ReadOptions(Map.of(), new long[] {16, 16}))) {
            assertEquals(List.of("c0/w", "dw/w", "c1/w"), m.layers().stream().map(GemmLayer::name).toList());
            assertEquals(List.of(64L, 64L, 64L), m.layers().stream().map(GemmLayer::columnsPerSample).toList());
        }
        try (Model m = Models.open(file)) {
            assertEquals(List.of(1L, 1L, 1L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "no --input-size: N = batch");
        }
        // a Placeholder that states its size (converters write the model's fixed input there): followed without --input-size,
        // and kept over one
        Path stated = dir.resolve("stated.json");
        Files.writeString(stated, json.replace("{\"size\":\"-1\"},{\"size\":\"-1\"},{\"size\":\"-1\"},{\"size\":\"3\"}",
                "{\"size\":\"-1\"},{\"size\":\"16\"},{\"size\":\"16\"},{\"size\":\"3\"}"));
        Files.copy(dir.resolve("cnn.bin"), dir.resolve("stated.bin"));
        Files.writeString(stated, Files.readString(stated).replace("\"cnn.bin\"", "\"stated.bin\""));
        try (Model m = Models.open(stated)) {
            assertEquals(List.of(64L, 64L, 64L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "the stated 16x16");
        }
        try (Model m = Models.open(stated, new ReadOptions(Map.of(), new long[] {32, 32}))) {
            assertEquals(List.of(64L, 64L, 64L), m.layers().stream().map(GemmLayer::columnsPerSample).toList(), "the stated size is the model's");
        }
    }
}
