package dev.sparseprof.cli;

import static dev.sparseprof.cli.ModelCommandsTest.assertBadInput;
import static dev.sparseprof.cli.ModelCommandsTest.map;
import static dev.sparseprof.cli.ModelCommandsTest.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.cli.ModelCommandsTest.Result;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.model.PrunedWriter;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code prune} of a TF.js model writes TF.js back (the manifest byte for byte, shards of the same
 * sizes, only pruned codes changed), and bad outputs (a folder where a file goes, a file where a
 * folder goes, an unwritable place, a failure mid-write) are one line, exit 2, nothing half-written.
 */
class PruneTfjsAndFaultsTest {
    static final Path FACE = Path.of("target/npm/node_modules/@vladmandic/face-api/model");

    @TempDir Path dir;

    private static Map<String, Tensor> tensors(Model m) {
        Map<String, Tensor> out = new HashMap<>();
        for (Tensor t : m.tensors()) out.put(t.name(), t);
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tiny_face_detector_model", "face_expression_model", "face_landmark_68_tiny_model", "age_gender_model",
        "face_landmark_68_model", "face_recognition_model", "ssd_mobilenetv1_model"})
    void aFaceApiModelComesBackAsTfjsWithExactCounts(String name) throws IOException {
        Path manifest = FACE.resolve(name + "-weights_manifest.json");
        Assumptions.assumeTrue(Files.exists(manifest), "face-api models absent (./test.sh installs @vladmandic/face-api into target/npm)");
        assertComesBackWithExactCounts(manifest, name + ".bin", name + "-weights_manifest.sparseprof.json");
    }

    /** The same for the graph models (model.json with its manifest) of @vladmandic/human, fp16, uint8 and fp32 weights. */
    @ParameterizedTest
    @ValueSource(strings = {"antispoof", "blazeface", "centernet", "emotion", "facemesh", "faceres", "handlandmark-lite", "handtrack", "iris",
        "liveness", "movenet-lightning"})
    void aGraphModelOfAnotherConverterComesBackAsTfjsWithExactCounts(String name) throws IOException {
        Path model = Path.of("target/npm/packs/@vladmandic+human/models", name + ".json");
        Assumptions.assumeTrue(Files.exists(model), "@vladmandic/human absent (./test.sh unpacks it into target/npm/packs)");
        assertComesBackWithExactCounts(model, name + ".bin", name + ".sparseprof.json");
    }

    /**
     * {@code prune --sparsity 0.5} of the TF.js model at {@code manifest} into a new folder: the JSON
     * byte for byte, the one shard {@code shard} at its size, the metadata file {@code metadataName},
     * each layer at exactly its half of non-zeros (or all it had), every other weight as it was.
     */
    private void assertComesBackWithExactCounts(Path manifest, String shard, String metadataName) throws IOException {
        Path out = dir.resolve("pruned");
        Result p = run("prune", manifest.toString(), "--sparsity", "0.5", "--out", out.toString());
        assertEquals(0, p.code(), p.err());
        Path written = out.resolve(manifest.getFileName());
        assertArrayEquals(Files.readAllBytes(manifest), Files.readAllBytes(written), "the manifest is kept byte for byte");
        assertEquals(Files.size(manifest.resolveSibling(shard)), Files.size(out.resolve(shard)), "the shard keeps its size");
        Map<String, Object> meta = Json.parseObject(Files.readString(out.resolve(metadataName)));
        assertEquals("--sparsity 0.5 --scope layer", meta.get("sparseprof.prune"));
        try (Model a = Models.open(manifest); Model b = Models.open(written)) {
            Set<String> layers = new HashSet<>();
            for (GemmLayer l : b.layers()) {
                layers.add(l.tensorName());
                long nnz = 0;
                for (float v : l.matrix().toDense()) nnz += v != 0 ? 1 : 0;
                long before = 0;
                for (GemmLayer s : a.layers()) if (s.name().equals(l.name())) for (float v : s.matrix().toDense()) before += v != 0 ? 1 : 0;
                assertEquals(Math.min(before, l.params() - l.params() / 2), nnz, l.name());
            }
            Map<String, Tensor> after = tensors(b);
            for (Tensor t : a.tensors()) {
                Tensor u = after.get(t.name());
                for (long i = 0; i < t.elementCount(); i++) {
                    if (layers.contains(t.name()) && u.isZero(i)) continue;
                    assertEquals(t.getFloat(i), u.getFloat(i), t.name() + "[" + i + "]: untouched and surviving weights keep their value");
                }
            }
        }
    }

    @Test
    void aQuantizedWeightWithNoCodeForZeroIsRefusedAndNothingIsWritten() throws IOException {
        // uint8, scale 0.1, min 0.05: codes decode to 0.05, 0.15, ...: no code is 0
        Path manifest = dir.resolve("m-weights_manifest.json");
        Files.writeString(manifest, "[{\"paths\": [\"m.bin\"], \"weights\": [{\"name\": \"conv/filters\", \"shape\": [1, 1, 4, 4], \"dtype\": \"float32\","
                + " \"quantization\": {\"dtype\": \"uint8\", \"scale\": 0.1, \"min\": 0.05}}]}]");
        Files.write(dir.resolve("m.bin"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
        assertBadInput(run("prune", manifest.toString(), "--sparsity", "0.5", "--out", dir.resolve("out").toString()), "no code for 0");
        assertEquals(Set.of("m-weights_manifest.json", "m.bin"), names(dir));
    }

    /** A GPTQ, AWQ, compressed-tensors, bitsandbytes 4-bit, AQLM or HQQ weight (src/test/resources/packed) cannot take its zeros back: one line, nothing written. */
    @ParameterizedTest
    @ValueSource(strings = {"gptq-act-order", "awq", "ct-sym", "nvfp4", "bnb-nf4", "aqlm-2x8", "hqq4"})
    void aPackedQuantizedWeightIsRefusedAndNothingIsWritten(String form) {
        Path out = dir.resolve(form + "-pruned");
        assertBadInput(run("prune", Path.of("src/test/resources/packed", form).toString(), "--sparsity", "0.6", "--out", out.toString()),
                "layer 'model.layers.0.mlp.up_proj.weight' is stored encoded");
        assertFalse(Files.exists(out));
    }

    /** A bitsandbytes LLM.int8 weight is plain int8 rows under a scale each: pruned in place, its SCB kept, exact counts back. */
    @Test
    void anLlmInt8WeightIsPrunedInPlace() throws IOException {
        Path out = dir.resolve("int8-pruned");
        Result p = run("prune", Path.of("src/test/resources/packed/bnb-int8").toString(), "--sparsity", "0.8", "--out", out.toString());
        assertEquals(0, p.code(), p.err());
        Map<String, Object> totals = map(Json.parseObject(run("profile", out.toString(), "--json", "-").out()).get("totals"));
        assertEquals(8192L - (long) (0.8 * 8192), totals.get("nnz"), "the requested count, rounded down as the pruner counts: " + totals);
        try (Model before = Models.open(Path.of("src/test/resources/packed/bnb-int8")); Model after = Models.open(out)) {
            Tensor scb = after.tensors().stream().filter(t -> t.name().endsWith(".SCB")).findFirst().orElseThrow();
            Tensor was = before.tensors().stream().filter(t -> t.name().endsWith(".SCB")).findFirst().orElseThrow();
            assertEquals(DType.F32, scb.dtype());
            for (int r = 0; r < 64; r++) assertEquals(was.getFloat(r), scb.getFloat(r), "row scales untouched");
            assertEquals(DType.I8, after.layers().get(0).storedDType());
        }
    }

    private Path checkpoint() {
        Random r = new Random(3);
        List<Tensor> tensors = new ArrayList<>();
        for (String n : List.of("a.weight", "b.weight", "c.weight")) {
            MemorySegment seg = MemorySegment.ofArray(new byte[64 * 32 * 2]);
            for (int i = 0; i < 64 * 32; i++) {
                seg.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), i, Float.floatToFloat16((float) r.nextGaussian()));
            }
            tensors.add(new Tensor(n, DType.BF16, new long[] {64, 32}, seg));
        }
        Path file = dir.resolve("ckpt.safetensors");
        SafetensorsWriter.write(file, tensors, Map.of("format", "pt"));
        return file;
    }

    private static Set<String> names(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return new HashSet<>(s.map(f -> f.getFileName().toString()).toList());
        }
    }

    @Test
    void anOutputOfTheWrongKindOrPlaceIsOneLineExitTwoAndWritesNothing() throws IOException {
        Path source = checkpoint();
        Files.createDirectories(dir.resolve("dir.safetensors"));
        assertBadInput(run("prune", source.toString(), "--nm", "2:4", "--out", dir.resolve("dir.safetensors").toString()), "is a folder");
        Files.writeString(dir.resolve("plainfile"), "x");
        assertBadInput(run("prune", source.toString(), "--nm", "2:4", "--out", dir.resolve("plainfile").toString()), "exists and is not a folder");
        assertBadInput(run("prune", source.toString(), "--nm", "2:4", "--out", "/proc/sparseprof-x.safetensors"), "cannot write");
        assertBadInput(run("prune", source.toString(), "--nm", "2:4", "--out", "/proc/sparseprof-folder"), "cannot write the folder");
        assertEquals(Set.of("ckpt.safetensors", "dir.safetensors", "plainfile"), names(dir));
        assertEquals("x", Files.readString(dir.resolve("plainfile")));
        assertTrue(names(dir.resolve("dir.safetensors")).isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"out.safetensors", "outfolder"})
    void aFailureMidWriteLeavesNoFileAndNoTemporaryOne(String target) throws IOException {
        Path source = checkpoint();
        Path out = dir.resolve(target);
        try (Model m = Models.open(source)) {
            Set<String> all = new HashSet<>();
            for (Tensor t : m.tensors()) all.add(t.name());
            PrunedWriter.Editor failing = new PrunedWriter.Editor() {
                @Override public void edit(Tensor tensor, MemorySegment target) {
                    throw new IllegalStateException("editor fails");
                }

                @Override public boolean stream(Tensor tensor, PrunedWriter.ByteSink sink) throws IOException {
                    sink.write(0, tensor.data().asSlice(0, 128));
                    if (tensor.name().equals("b.weight")) throw new IOException("disk gone mid-tensor");
                    sink.write(128, tensor.data().asSlice(128));
                    return true;
                }
            };
            Exception e = assertThrows(RuntimeException.class, () -> PrunedWriter.write(m, out, all, failing, Map.of()));
            assertTrue(e.getMessage().contains("disk gone"), e.getMessage());
        }
        assertFalse(Files.exists(out));
        assertEquals(Set.of("ckpt.safetensors"), names(dir), "no partial output and no temporary file left");
    }
}
