package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** profile, prune and formats end to end through {@link Main#run}, on the bundled MiniLM and on files the tests write. */
class ModelCommandsTest {
    @TempDir Path dir;

    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> layers(Map<String, Object> json) {
        return (List<Map<String, Object>>) json.get("layers");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void profileOfTheDefaultModelListsThirtySixLinearLayersAsJson() {
        Result r = run("profile", "--json", "-");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> json = Json.parseObject(r.out());
        List<Map<String, Object>> linear = layers(json).stream().filter(l -> l.get("kind").equals("linear")).toList();
        assertEquals(36, linear.size());
        assertEquals(3, layers(json).stream().filter(l -> l.get("kind").equals("embedding_gather")).count());
        Map<String, Object> ffn = linear.stream().filter(l -> l.get("name").equals("/encoder/layer.0/intermediate/dense/MatMul")).findFirst().orElseThrow();
        assertEquals(1536L, map(ffn.get("shape")).get("rows"));
        assertEquals(384L, map(ffn.get("shape")).get("cols"));
        assertEquals(589824L, ffn.get("params"));
        assertEquals(2L * 589824 * 128, ffn.get("denseFlops"));
        Map<String, Object> totals = map(json.get("totals"));
        assertEquals(10616832L, totals.get("params"));
        assertEquals(36L, totals.get("gemmLayers"));
        for (String key : List.of("nnz", "sparsity", "nm", "denseFlops", "sparseFlops", "speedup")) assertTrue(totals.containsKey(key), key);
    }

    @Test
    void pruneTwoFourThenProfileShowsFullComplianceAndHalfTheWeights() throws IOException {
        Path pruned = dir.resolve("minilm-2of4.onnx");
        Result p = run("prune", "--nm", "2:4", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        try (Model m = Models.open(pruned)) {
            assertEquals("--nm 2:4", m.metadata().get("sparseprof.prune"));
        }
        Path csv = dir.resolve("p.csv");
        Result r = run("profile", pruned.toString(), "--json", "-", "--csv", csv.toString());
        assertEquals(0, r.code(), r.err());
        List<Map<String, Object>> linear = layers(Json.parseObject(r.out())).stream().filter(l -> l.get("kind").equals("linear")).toList();
        assertEquals(36, linear.size());
        for (Map<String, Object> l : linear) {
            assertEquals(1.0, (Double) map(l.get("nm")).get("2:4"), l.get("name").toString());
            assertEquals((Long) l.get("params") / 2, l.get("nnz"));
        }
        assertEquals(1 + 39, Files.readAllLines(csv).size(), "header + one row per layer");
        Result f = run("formats", pruned.toString(), "--dtype", "fp16", "--json", "-");
        assertEquals(0, f.code(), f.err());
        Map<String, Object> totals = map(map(Json.parseObject(f.out()).get("totals")).get("formats"));
        assertEquals(true, map(totals.get("2:4")).get("applicable"));
        // 2:4 with fp16: half the values (2 bytes each) plus 4 bits per group of 4.
        long params = 10616832;
        assertEquals(params / 2 * 2, map(totals.get("2:4")).get("valueBytes"));
        assertEquals(params / 4 / 2, map(totals.get("2:4")).get("metadataBytes"));
    }

    @Test
    void magnitudePruningKeepsExactCountsPerLayer() {
        Path pruned = dir.resolve("m90.onnx");
        Result p = run("prune", "--sparsity", "0.9", "--out", pruned.toString());
        assertEquals(0, p.code(), p.err());
        try (Model m = Models.open(pruned)) {
            assertEquals(39, m.layers().size());
            m.layers().stream().filter(l -> !l.name().contains("embeddings")).forEach(l -> {
                float[] d = l.matrix().toDense();
                long nnz = 0;
                for (float v : d) if (v != 0) nnz++;
                assertEquals(l.params() - (long) Math.floor(0.9 * l.params()), nnz, l.name());
            });
        }
    }

    @Test
    void formatsOfTheDenseDefaultModelSayTwoFourDoesNotFit() {
        Result r = run("formats");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("n/a (not 2:4)"), r.out());
        assertTrue(r.out().contains("csr"));
    }

    @Test
    void criticalLayersAreFlagged() {
        float[] sparse = new float[1000];
        for (int i = 0; i < 1000; i += 20) sparse[i] = 1; // 95% zeros
        float[] half = new float[100];
        for (int i = 0; i < 100; i += 2) half[i] = 1; // 50% zeros
        Path file = dir.resolve("two.safetensors");
        SafetensorsWriter.write(file, List.of(Tensor.ofFloats("big", new long[] {10, 100}, sparse),
                Tensor.ofFloats("small", new long[] {10, 10}, half)), Map.of());
        Result r = run("profile", file.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        List<Map<String, Object>> l = layers(Json.parseObject(r.out()));
        assertEquals(false, l.get(0).get("critical"));
        assertEquals(true, l.get(1).get("critical"));
        assertTrue(run("profile", file.toString()).out().contains("CRITICAL"));
        assertEquals(0.5, (Double) Json.parseObject(run("profile", file.toString(), "--activation-density", "0.5", "--json", "-").out())
                .get("activationDensity"));
    }

    @Test
    void perLayerActivationDensityScalesSparseFlops() throws IOException {
        Path file = Path.of("models/tiny-mlp.safetensors");
        Path densities = dir.resolve("act.json");
        Files.writeString(densities, "{\"fc2.weight\": 0.25}");
        List<Map<String, Object>> l = layers(Json.parseObject(run("profile", file.toString(), "--activation-density", densities.toString(),
                "--batch", "10", "--json", "-").out()));
        assertEquals(2.0 * 2048 * 10, (Double) l.get(0).get("sparseFlops"));
        assertEquals(2.0 * 248 * 10 * 0.25, (Double) l.get(1).get("sparseFlops"));
        Files.writeString(densities, "{\"nope\": 0.5}");
        assertBadInput(run("profile", file.toString(), "--activation-density", densities.toString()), "no layer 'nope'");
        Files.writeString(densities, "{\"fc1.weight\": 2}");
        assertBadInput(run("profile", file.toString(), "--activation-density", densities.toString()), "(0, 1]");
    }

    @Test
    void badInputIsExitTwoWithOneLineAndNoPartialFile() throws IOException {
        Path corrupt = dir.resolve("corrupt.onnx");
        Files.write(corrupt, new byte[] {0x3a, 0x7f, 1, 2});
        Path out = dir.resolve("out.safetensors");
        assertBadInput(run("profile", dir.resolve("missing.onnx").toString()), "no such file");
        assertBadInput(run("profile", corrupt.toString()), "corrupt.onnx");
        assertBadInput(run("prune", corrupt.toString(), "--nm", "2:4", "--out", out.toString()), "corrupt.onnx");
        assertBadInput(run("prune", "--nm", "2:4", "--sparsity", "0.5", "--out", out.toString()), "exactly one");
        assertBadInput(run("prune", "--nm", "2:4", "--out", dir.resolve("x.bin").toString()), "unknown kind of file");
        assertBadInput(run("prune", "--nm", "2:4", "--out", dir.resolve("x.safetensors").toString()), "cannot hold the graph");
        assertBadInput(run("prune", "--sparsity", "1.5", "--out", out.toString()), "sparsity");
        assertBadInput(run("prune", "--nm", "2:4", "--out", dir.resolve("no/such/dir/o.safetensors").toString()), "does not exist");
        assertBadInput(run("profile", "--batch", "0"), "--batch");
        assertBadInput(run("profile", "--activation-density", "0"), "--activation-density");
        assertBadInput(run("profile", "--csv", dir.resolve("nodir/p.csv").toString()), "does not exist");
        assertBadInput(run("formats", "--dtype", "fp64"), "--dtype");
        assertBadInput(run("formats", "--dtype", "int3"), "unknown dtype");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(corrupt), s.toList(), "no output or temporary file left behind");
        }
        assertFalse(run("profile", "--verbose", corrupt.toString()).err().isBlank());
    }

    static void assertBadInput(Result r, String fragment) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(fragment), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertTrue(r.err().strip().lines().count() <= 2, r.err());
    }
}
