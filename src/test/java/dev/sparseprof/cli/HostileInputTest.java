package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.model.GgufFixtures;
import dev.sparseprof.model.NpyFixtures;
import dev.sparseprof.model.OnnxFiles;
import dev.sparseprof.model.ProtoWriter;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.TorchFixtures;
import dev.sparseprof.model.TorchFixtures.Pickle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile files of issue 13's "Bad input" list, each made on purpose and run through the CLI
 * under the {@link BadInput} contract (exit 2, one line naming the file and the fault, no stack
 * text, nothing written, heap bounded by the file): a pickle that would call something, zip entries
 * that escape, an index that leaves its folder or names what is not there, a GGUF whose counts,
 * offsets or dims lie, shapes beyond the file, ConvTranspose/LSTM weights against their attributes;
 * and beside them names with line breaks, nesting past the limits and lying numbers in the text
 * inputs. {@link BadInputFuzzTest} mutates valid files at random; these are the lies it may miss.
 */
class HostileInputTest {
    @TempDir Path dir;

    /** Runs {@code args} (OUT stands for the output file) and asserts a one-line refusal naming {@code named} and holding {@code fault}. */
    private void refused(String named, String fault, String... args) throws IOException {
        Path out = Files.createDirectories(dir.resolve("out"));
        String[] a = args.clone();
        for (int i = 0; i < a.length; i++) a[i] = a[i].replace("OUT", out.toString());
        BadInput.Outcome o = BadInput.run(String.join(" ", a), a);
        BadInput.check(o, named, folderBytes(), out, false, null);
        assertTrue(o.err().contains(fault), "the line says '" + fault + "': " + o.describe());
    }

    private long folderBytes() throws IOException {
        try (var s = Files.walk(dir)) {
            long n = 0;
            for (Path p : s.filter(Files::isRegularFile).toList()) n += Files.size(p);
            return n;
        }
    }

    private String write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
        return p.toString();
    }

    private String write(String name, String text) throws IOException {
        return write(name, text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] le64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    @Test
    void picklesThatWouldCallSomethingAndZipsThatEscapeAreRefused() throws IOException {
        Pickle call = new Pickle().beginStateDict().str("w");
        call.global("os", "system").str("echo pwned").op(0x85).op('R');
        TorchFixtures.zip(dir.resolve("os.pt"), TorchFixtures.archive("os", call.endStateDict().bytes(), TorchFixtures.floats(1, 2)));
        refused("os.pt", "os.system", "profile", dir.resolve("os.pt").toString(), "--json", "OUT/p.json");
        Pickle reduce = new Pickle().beginStateDict().str("w");
        reduce.global("builtins", "eval").str("1").op(0x85).op('R');
        TorchFixtures.zip(dir.resolve("eval.pt"), TorchFixtures.archive("eval", reduce.endStateDict().bytes(), TorchFixtures.floats(1, 2)));
        refused("eval.pt", "builtins.eval", "profile", dir.resolve("eval.pt").toString(), "--json", "OUT/p.json");
        for (String entry : List.of("m/../../evil.sh", "/etc/cron.d/x")) {
            Pickle p = new Pickle().beginStateDict();
            p.str("fc.weight").tensor("FloatStorage", "0", 4, 0, new long[] {2, 2}, new long[] {2, 1});
            Map<String, byte[]> m = new LinkedHashMap<>(TorchFixtures.archive("m", p.endStateDict().bytes(), TorchFixtures.floats(1, 2, 3, 4)));
            m.put(entry, new byte[] {1});
            TorchFixtures.zip(dir.resolve("escape.pt"), m);
            refused("escape.pt", "refusing zip entry", "profile", dir.resolve("escape.pt").toString(), "--json", "OUT/p.json");
            writeNpz("escape.npz", entry);
            refused("escape.npz", "refusing zip entry", "profile", dir.resolve("escape.npz").toString(), "--json", "OUT/p.json");
        }
        Pickle huge = new Pickle().beginStateDict();
        huge.str("fc.weight").tensor("FloatStorage", "0", 1L << 40, 0, new long[] {1 << 20, 1 << 20}, new long[] {1 << 20, 1});
        TorchFixtures.zip(dir.resolve("huge.pt"), TorchFixtures.archive("huge", huge.endStateDict().bytes(), TorchFixtures.floats(1, 2)));
        refused("huge.pt", "huge.pt: ", "profile", dir.resolve("huge.pt").toString(), "--json", "OUT/p.json");
    }

    private void writeNpz(String name, String member) throws IOException {
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(dir.resolve(name)))) {
            z.putNextEntry(new ZipEntry(member));
            z.write(NpyFixtures.npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", InputSubjects.le(new float[] {1, 2, 3, 4})));
            z.closeEntry();
        }
    }

    @Test
    void anIndexThatLeavesItsFolderOrNamesWhatIsNotThereIsRefused() throws IOException {
        Path ckpt = Files.createDirectories(dir.resolve("ckpt"));
        SafetensorsWriter.write(dir.resolve("outside.safetensors"), List.of(InputSubjects.f32("w", 4, 4, 1)), Map.of());
        SafetensorsWriter.write(ckpt.resolve("model-1.safetensors"), List.of(InputSubjects.f32("w", 4, 4, 1)), Map.of());
        String[][] cases = {
            {"../outside.safetensors", "w", "refusing"},
            {dir.resolve("outside.safetensors").toString(), "w", "refusing absolute"},
            {"model-2.safetensors", "w", "model-2.safetensors"},
            {"model-1.safetensors", "v", "'v'"},
        };
        for (String[] c : cases) {
            Files.writeString(ckpt.resolve("model.safetensors.index.json"), "{\"metadata\": {}, \"weight_map\": {\"" + c[1] + "\": \"" + c[0] + "\"}}");
            refused("model.safetensors.index.json", c[2], "profile", ckpt.toString(), "--json", "OUT/p.json");
        }
    }

    @Test
    void aGgufWhoseCountsOffsetsOrDimsLieIsRefused() throws IOException {
        byte[] good = GgufFixtures.llama();
        int name = Mutants.indexOf(good, "blk.0.attn_q.weight") + "blk.0.attn_q.weight".length();
        int dims = name + 4;
        int offset = dims + 2 * 8 + 4;
        Object[][] lies = {
            {8, 1L << 40, "tensor infos"}, {16, -1L, "metadata entries"}, {dims, 1L << 30, "attn_q"}, {dims, 1L << 62, "attn_q"},
            {offset, 1L << 40, "attn_q"}, {offset, Mutants.littleEndian(good, offset, 8) + 1, "alignment"},
        };
        for (Object[] lie : lies) {
            write("lie.gguf", Mutants.withInteger(good, (int) lie[0], 8, (long) lie[1]));
            refused("lie.gguf", (String) lie[2], "profile", dir.resolve("lie.gguf").toString(), "--json", "OUT/p.json");
        }
    }

    @Test
    void shapesBeyondTheFileAreRefusedBeforeAnythingIsSized() throws IOException {
        String header = "{\"w\": {\"dtype\": \"F32\", \"shape\": [1048576, 1048576], \"data_offsets\": [0, 16]}}";
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        write("huge.safetensors", ByteBuffer.allocate(8 + h.length + 16).order(ByteOrder.LITTLE_ENDIAN).putLong(h.length).put(h).array());
        refused("huge.safetensors", "huge.safetensors: ", "profile", dir.resolve("huge.safetensors").toString(), "--json", "OUT/p.json");
        write("huge.npy", NpyFixtures.npy("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }", new byte[16]));
        refused("huge.npy", "huge.npy: ", "profile", dir.resolve("huge.npy").toString(), "--json", "OUT/p.json");
        ProtoWriter g = new ProtoWriter().message(5, OnnxFiles.rawTensor("w", OnnxFiles.FLOAT, new byte[16], 1 << 20, 1 << 20))
                .message(1, OnnxFiles.node("mm", "MatMul", new String[] {"x", "w"}, new String[] {"y"}));
        write("huge.onnx", OnnxFiles.model(g));
        refused("huge.onnx", "huge.onnx: ", "profile", dir.resolve("huge.onnx").toString(), "--json", "OUT/p.json");
        write("tf/m-weights_manifest.json", "[{\"paths\": [\"m.bin\"], \"weights\": [{\"name\": \"d/kernel\", \"shape\": [65536, 65536], \"dtype\": \"float32\"}]}]");
        write("tf/m.bin", new byte[64]);
        refused("m.bin", "m.bin holds 64 bytes", "profile", dir.resolve("tf/m-weights_manifest.json").toString(), "--json", "OUT/p.json");
        write("coord.mtx", "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n");
        refused("coord.mtx", "at most 1048576 rows and columns", "profile", dir.resolve("coord.mtx").toString(), "--json", "OUT/p.json");
        write("array.mtx", "%%MatrixMarket matrix array real general\n100000 100000\n1\n");
        refused("array.mtx", "array.mtx: line 2: ", "profile", dir.resolve("array.mtx").toString(), "--json", "OUT/p.json");
    }

    @Test
    void convTransposeAndLstmWeightsAgainstTheirAttributesAreRefused() throws IOException {
        ProtoWriter lstm = new ProtoWriter().message(5, OnnxFiles.rawTensor("W", OnnxFiles.FLOAT, new byte[4 * 24], 1, 12, 2))
                .message(1, OnnxFiles.node("lstm", "LSTM", new String[] {"x", "W"}, new String[] {"y"}, OnnxFiles.intAttribute("hidden_size", 4)));
        write("lstm.onnx", OnnxFiles.model(lstm));
        refused("lstm.onnx", "does not match hidden_size 4", "profile", dir.resolve("lstm.onnx").toString(), "--json", "OUT/p.json");
        ProtoWriter ct = new ProtoWriter().message(5, OnnxFiles.rawTensor("W", OnnxFiles.FLOAT, new byte[4 * 16], 4, 1, 2, 2))
                .message(1, OnnxFiles.node("up", "ConvTranspose", new String[] {"x", "W"}, new String[] {"y"}, OnnxFiles.intAttribute("group", 3)));
        write("ct.onnx", OnnxFiles.model(ct));
        refused("ct.onnx", "not a multiple of group 3", "prune", dir.resolve("ct.onnx").toString(), "--nm", "2:4", "--out", "OUT/p.onnx");
    }

    @Test
    void namesWithLineBreaksAndControlCharactersStayOnOneLine() throws IOException {
        String evil = "w\nat org.Fake(Fake.java:1)\r\u001b[2J\u2028x";
        String header = "{\"" + evil.replace("\n", "\\n").replace("\r", "\\r").replace("\u001b", "\\u001b")
                + "\": {\"dtype\": \"F99\", \"shape\": [2], \"data_offsets\": [0, 8]}}";
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        write("evil.safetensors", ByteBuffer.allocate(8 + h.length + 8).order(ByteOrder.LITTLE_ENDIAN).putLong(h.length).put(h).array());
        refused("evil.safetensors", "w\\nat org.Fake(Fake.java:1)\\r\\u001b[2J\\u2028x", "profile", dir.resolve("evil.safetensors").toString(),
                "--json", "OUT/p.json");
        write("evil.yaml", "version: 1\nlayers:\n  - {name: \"fc\\nat org.X\", pattern: unstructured, sparsity: 0.5}\n");
        InputSubjects.weights(dir);
        refused("evil.yaml", "fc\\nat org.X", "prune", dir.resolve("w.safetensors").toString(), "--recipe", dir.resolve("evil.yaml").toString(),
                "--out", "OUT/p.safetensors");
        BadInput.Outcome verbose = BadInput.run("verbose", "profile", "--verbose", dir.resolve("evil.safetensors").toString());
        assertEquals(Main.EXIT_BAD_INPUT, verbose.code());
        assertTrue(verbose.err().contains("\tat dev.sparseprof."), "--verbose shows the stack: " + verbose.err());
    }

    @Test
    void nestingPastTheLimitsAndAliasBombsAreOneLine() throws IOException {
        InputSubjects.weights(dir);
        String deep = "[".repeat(50_000) + "]".repeat(50_000);
        write("deep.yaml", "version: 1\nlayers: " + deep + "\n");
        refused("deep.yaml", "nested deeper than 64", "prune", dir.resolve("w.safetensors").toString(), "--recipe", dir.resolve("deep.yaml").toString(),
                "--out", "OUT/p.safetensors");
        StringBuilder block = new StringBuilder("version: 1\nname: x\ncpu:\n");
        for (int i = 1; i < 100; i++) block.append("  ".repeat(i)).append("k").append(i).append(":\n");
        write("block.yaml", block.toString());
        refused("block.yaml", "nested deeper than 64", "simulate", "--hw", dir.resolve("block.yaml").toString(), "--model", dir.resolve("w.safetensors").toString(),
                "--traffic", "analytical", "--json", "OUT/s.json");
        StringBuilder laughs = new StringBuilder("version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i < 12; i++) {
            laughs.append('a').append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 10; j++) laughs.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            laughs.append("]\n");
        }
        write("laughs.yaml", laughs.toString());
        refused("laughs.yaml", "laughs.yaml: ", "simulate", "--hw", dir.resolve("laughs.yaml").toString(), "--model", dir.resolve("w.safetensors").toString(),
                "--traffic", "analytical", "--json", "OUT/s.json");
        byte[] h = ("{\"w\": " + deep + "}").getBytes(StandardCharsets.UTF_8);
        write("deep.safetensors", ByteBuffer.allocate(8 + h.length).order(ByteOrder.LITTLE_ENDIAN).putLong(h.length).put(h).array());
        refused("deep.safetensors", "nesting deeper than 64", "profile", dir.resolve("deep.safetensors").toString(), "--json", "OUT/p.json");
    }

    @Test
    void onnxSubgraphsInsideSubgraphsPastTheLimitAreOneLine() throws IOException {
        ProtoWriter graph = new ProtoWriter().message(5, OnnxFiles.rawTensor("w", OnnxFiles.FLOAT, new byte[16], 2, 2));
        for (int level = 0; level < 120; level++) {
            ProtoWriter node = OnnxFiles.node("if" + level, "If", new String[] {"c"}, new String[] {"y"},
                    OnnxFiles.graphAttribute("then_branch", graph));
            graph = new ProtoWriter().message(1, node);
        }
        write("deep.onnx", OnnxFiles.model(graph));
        refused("deep.onnx", "nested deeper than 200", "profile", dir.resolve("deep.onnx").toString(), "--json", "OUT/p.json");
    }

    @Test
    void specNumbersThatOverflowAreRefused() throws IOException {
        InputSubjects.spec(dir);
        String spec = Files.readString(dir.resolve("cpu.yaml"));
        for (String lie : List.of("bandwidth: 1e308GB/s", "bandwidth: 1e400GB/s")) {
            Files.writeString(dir.resolve("cpu.yaml"), spec.replaceFirst("bandwidth: \\d+GB/s", lie));
            refused("cpu.yaml", "beyond any real machine", "simulate", "--hw", dir.resolve("cpu.yaml").toString(), "--model",
                    dir.resolve("w.safetensors").toString(), "--traffic", "analytical", "--json", "OUT/s.json");
        }
    }

    @Test
    void measurementsWhoseCountsLieNameTheFileAndTheResult() throws IOException {
        InputSubjects.measurements(dir);
        String valid = Files.readString(dir.resolve("runs.json"));
        String[][] lies = {
            {"\"rows\": 384", "\"rows\": 4294967681", "'rows' is 4294967681, out of range"},
            {"\"rows\": 384", "\"rows\": -384", "bad shape or counts"},
            {"\"nnz\": 14746", "\"nnz\": 14746000", "bad shape or counts"},
            {"\"sparsity\": 0.8999972873263888", "\"sparsity\": 9e18", "sparsity 9.0E18 outside [0, 1]"},
            {"\"cpuModel\": \"Intel(R) Xeon(R) Processor\"", "\"cpuModel\": \"\"", "empty CPU model"},
            {"\"medianSeconds\": 8.953E-5", "\"medianSeconds\": 0", "results[0]"},
        };
        for (String[] lie : lies) {
            assertTrue(valid.contains(lie[0]), lie[0]);
            Files.writeString(dir.resolve("runs.json"), valid.replaceFirst(Pattern.quote(lie[0]), lie[1]));
            refused("runs.json", lie[2], "calibrate", "--hw", dir.resolve("probe.yaml").toString(), "--measurements", dir.resolve("runs.json").toString(),
                    "--out", "OUT/cal.yaml");
        }
    }

    @Test
    void tracesWithBadRecordsNameTheFileAndLine() throws IOException {
        String[][] cases = {
            {"0 1000\n0 ffffffffffffffffffff\n", "t.din:2"},
            {"0 1000\n9 1000\n", "t.din:2"},
            {"0 1000\nr 1000\n", "t.din:2"},
        };
        for (String[] c : cases) {
            write("t.din", c[0]);
            refused("t.din", c[1], "cachesim", "--trace", dir.resolve("t.din").toString(), "--level", "L1:1KiB:2:64", "--json", "OUT/c.json");
        }
    }
}
