package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sparseprof.model.GgufFixtures;
import dev.sparseprof.model.HfFixtures;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input is normal input: real model files of every single-file kind (ONNX and TorchScript
 * exported by torch, a GGUF and a safetensors file written here) cut short at 26 lengths and with
 * 1-8 random bytes overwritten in 40 seeded ways each, then given to {@code profile} (and the cut
 * ONNX and safetensors files to {@code prune}). Each either runs (a change in a weight's bytes) or
 * fails with exit 2 and one line, never an internal error, a stack trace or an error the JVM throws
 * (out of memory on a lying length, stack overflow); a refused prune writes nothing. A run of 1,000
 * overwrites per file (7 Dec 2026, about 16,000 runs) found no fault; the suite keeps 40.
 */
class MutatedModelFilesTest {
    private static final int TRUNCATIONS = 24;
    private static final int OVERWRITES = 40;

    @TempDir
    static Path dir;

    static Stream<Arguments> seeds() throws IOException {
        List<Arguments> seeds = new ArrayList<>();
        for (String f : new String[] {"mlp-float.onnx", "linear-int4.onnx", "mlp-qdq.onnx", "rnn-dynamo.onnx"}) {
            seeds.add(Arguments.of(f, Files.readAllBytes(Path.of("src/test/resources/onnx-export", f))));
        }
        for (String f : new String[] {"scripted.pt", "traced.pt", "exported.pt2"}) {
            seeds.add(Arguments.of(f, Files.readAllBytes(Path.of("src/test/resources/torchscript", f))));
        }
        seeds.add(Arguments.of("llama.gguf", GgufFixtures.llama()));
        seeds.add(Arguments.of("ternary.gguf", GgufFixtures.iq4AndTernary()));
        Random rnd = new Random(7);
        float[] a = new float[48 * 32];
        float[] b = new float[32 * 48];
        for (int i = 0; i < a.length; i++) a[i] = rnd.nextFloat() < 0.5 ? 0 : (float) rnd.nextGaussian();
        for (int i = 0; i < b.length; i++) b[i] = (float) rnd.nextGaussian();
        Path st = Files.createTempFile("seed", ".safetensors");
        SafetensorsWriter.write(st, List.of(Tensor.ofFloats("fc1.weight", new long[] {48, 32}, a), Tensor.ofFloats("fc2.weight", new long[] {32, 48}, b)),
                Map.of("format", "pt"));
        seeds.add(Arguments.of("tiny.safetensors", Files.readAllBytes(st)));
        Files.delete(st);
        return seeds.stream();
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void cutOrOverwrittenFilesFailInOneLine(String name, byte[] seed) throws IOException {
        Path file = dir.resolve(name);
        assertRuns(file, seed, "the seed");
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < TRUNCATIONS; i++) lengths.add((int) ((long) seed.length * i / TRUNCATIONS));
        lengths.add(seed.length - 1);
        lengths.add(Math.max(0, seed.length - 8));
        for (int length : lengths) assertRuns(file, java.util.Arrays.copyOf(seed, length), "cut to " + length + " of " + seed.length + " bytes");
        // prune writes the kind it read: a cut file is refused and nothing is written
        if (name.endsWith(".onnx") || name.endsWith(".safetensors")) {
            Path pruned = dir.resolve("pruned-" + name);
            for (int length : lengths) {
                Files.write(file, java.util.Arrays.copyOf(seed, length));
                StringWriter err = new StringWriter();
                int code = Main.run(new String[] {"prune", file.toString(), "--sparsity", "0.5", "--out", pruned.toString()},
                        new PrintWriter(new StringWriter()), new PrintWriter(err));
                assertTrue(code == 0 || code == 2, name + " cut to " + length + ": prune exit " + code + ": " + err);
                if (code == 2) assertFalse(Files.exists(pruned), name + " cut to " + length + ": a refused prune leaves no file");
                Files.deleteIfExists(pruned);
            }
        }
        Random rnd = new Random(name.hashCode());
        for (int m = 0; m < OVERWRITES; m++) {
            byte[] mutated = seed.clone();
            int bytes = 1 + rnd.nextInt(8);
            StringBuilder what = new StringBuilder("bytes overwritten:");
            for (int i = 0; i < bytes; i++) {
                int at = rnd.nextInt(seed.length);
                // half the time a length's worst case (0xff), else any value
                mutated[at] = rnd.nextBoolean() ? (byte) 0xff : (byte) rnd.nextInt(256);
                what.append(' ').append(at).append('=').append(mutated[at] & 0xff);
            }
            assertRuns(file, mutated, what.toString());
        }
    }

    /**
     * Models of several files: a Hugging Face folder (its index, config and a shard), and face-api's
     * tiny face detector (its TF.js manifest and weights shard) where test.sh installed the package.
     * Each file in turn is cut and overwritten as above, the model given as a whole.
     */
    @ParameterizedTest
    @MethodSource("folders")
    void cutOrOverwrittenPartsOfAModelFailInOneLine(String kind) throws IOException {
        Path folder = dir.resolve(kind);
        List<Path> parts;
        Path target;
        if (kind.equals("hf")) {
            HfFixtures.write(folder);
            target = folder;
            parts = List.of(folder.resolve("model.safetensors.index.json"), folder.resolve("config.json"),
                    folder.resolve("model-00001-of-00002.safetensors"));
        } else {
            Path faceApi = Path.of("target/npm/node_modules/@vladmandic/face-api/model");
            assumeTrue(Files.isDirectory(faceApi), "face-api not installed (test.sh installs it into target/npm)");
            Files.createDirectories(folder);
            for (String f : new String[] {"tiny_face_detector_model-weights_manifest.json", "tiny_face_detector_model.bin"}) {
                Files.copy(faceApi.resolve(f), folder.resolve(f));
            }
            target = folder.resolve("tiny_face_detector_model-weights_manifest.json");
            parts = List.of(target, folder.resolve("tiny_face_detector_model.bin"));
        }
        for (Path part : parts) {
            byte[] seed = Files.readAllBytes(part);
            Random rnd = new Random(part.getFileName().toString().hashCode());
            for (int i = 0; i <= TRUNCATIONS / 2; i++) {
                int length = (int) ((long) seed.length * i / (TRUNCATIONS / 2 + 1));
                assertRuns(target, part, java.util.Arrays.copyOf(seed, length), part.getFileName() + " cut to " + length + " of " + seed.length + " bytes");
            }
            for (int m = 0; m < OVERWRITES / 2; m++) {
                byte[] mutated = seed.clone();
                int at = rnd.nextInt(seed.length);
                mutated[at] = (byte) rnd.nextInt(256);
                assertRuns(target, part, mutated, part.getFileName() + " byte " + at + " = " + (mutated[at] & 0xff));
            }
            Files.write(part, seed);
        }
    }

    static Stream<String> folders() {
        return Stream.of("hf", "tfjs");
    }

    /** {@code profile} of {@code content} as {@code file}: exit 0, or exit 2 with one line naming the file; nothing else. */
    private static void assertRuns(Path file, byte[] content, String what) throws IOException {
        assertRuns(file, file, content, what);
    }

    /** {@code profile target} with {@code content} written to {@code part}: exit 0, or exit 2 with one line naming a file of it. */
    private static void assertRuns(Path target, Path part, byte[] content, String what) throws IOException {
        Files.write(part, content);
        Path file = target;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try {
            code = Main.run(new String[] {"profile", target.toString()}, new PrintWriter(out), new PrintWriter(err));
        } catch (Throwable t) {
            fail(file.getFileName() + ", " + what + ": threw " + t, t);
            return;
        }
        String e = err.toString();
        assertTrue(code == 0 || code == 2, file.getFileName() + ", " + what + ": exit " + code + ": " + e);
        if (code == 2) {
            assertEquals(1, e.strip().lines().count(), file.getFileName() + ", " + what + ": " + e);
            assertTrue(e.contains(part.getFileName().toString()) || e.contains(file.getFileName().toString()),
                    file.getFileName() + ", " + what + ": the line names the file: " + e);
        }
        assertFalse(e.contains("internal error") || e.contains("\tat "), file.getFileName() + ", " + what + ": " + e);
    }
}
