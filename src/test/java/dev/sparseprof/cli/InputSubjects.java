package dev.sparseprof.cli;

import dev.sparseprof.model.GgufFixtures;
import dev.sparseprof.model.HfFixtures;
import dev.sparseprof.model.NpyFixtures;
import dev.sparseprof.model.OnnxFiles;
import dev.sparseprof.model.ProtoWriter;
import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.model.TorchFixtures;
import dev.sparseprof.model.TorchFixtures.Pickle;
import dev.sparseprof.util.DType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Every kind of input file the CLI reads, each as a small valid fixture written into a folder and
 * the command line that reads it with its outputs in an output folder. The fuzz suite mutates
 * {@link Subject#mutated} and runs {@link Subject#args}.
 */
final class InputSubjects {
    private InputSubjects() {}

    /** Writes a valid input into a folder. */
    interface Writer {
        void write(Path folder) throws IOException;
    }

    /** The arguments that read the input in {@code folder}, writing into {@code out}. */
    interface Args {
        String[] of(Path folder, Path out);
    }

    /**
     * One kind of input.
     *
     * @param mutated the file (relative to the folder) whose bytes the mutations change
     * @param text    whether the file is text (text mutations apply)
     * @param strictKeys whether an unknown key must be refused (strict YAML)
     * @param references file names written in the text that hostile paths replace
     * @param mutantShare the share of the usual number of mutants (an accepted mutant of a slow command costs seconds)
     */
    record Subject(String name, Writer writer, String mutated, boolean text, boolean strictKeys, List<String> references, Args args,
                   double mutantShare) {
        Subject(String name, Writer writer, String mutated, boolean text, boolean strictKeys, List<String> references, Args args) {
            this(name, writer, mutated, text, strictKeys, references, args, 1.0);
        }

        /** {@code n} mutants scaled by {@link #mutantShare}, at least 4. */
        int count(int n) {
            return Math.max(4, (int) Math.round(n * mutantShare));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Subject> all() {
        List<Subject> s = new ArrayList<>();
        s.add(new Subject("onnx", InputSubjects::onnx, "m.onnx", false, false, List.of(), profile("m.onnx")));
        s.add(new Subject("safetensors", f -> Files.write(f.resolve("m.safetensors"), safetensors()), "m.safetensors", false, false,
                List.of(), profile("m.safetensors")));
        s.add(new Subject("hf-index", HfFixtures::write, "model.safetensors.index.json", true, false,
                List.of("model-00001-of-00002.safetensors"), profileFolder()));
        s.add(new Subject("hf-shard", HfFixtures::write, "model-00002-of-00002.safetensors", false, false, List.of(), profileFolder()));
        s.add(new Subject("hf-config", HfFixtures::write, "config.json", true, false, List.of(), profileFolder()));
        s.add(new Subject("torch", InputSubjects::torch, "m.pt", false, false, List.of(), profile("m.pt")));
        s.add(new Subject("torchscript", f -> Files.copy(Path.of("src/test/resources/torchscript/traced.pt"), f.resolve("m.pt")), "m.pt",
                false, false, List.of(), profile("m.pt")));
        s.add(new Subject("torch-export", f -> Files.copy(Path.of("src/test/resources/torchscript/exported.pt2"), f.resolve("m.pt2")), "m.pt2",
                false, false, List.of(), profile("m.pt2")));
        s.add(new Subject("gguf", f -> Files.write(f.resolve("m.gguf"), GgufFixtures.llama()), "m.gguf", false, false, List.of(),
                profile("m.gguf")));
        // GGUF's IQ4 and ternary blocks: scales and codes that may lie
        s.add(new Subject("gguf-iq4-tq", f -> Files.write(f.resolve("q.gguf"), GgufFixtures.iq4AndTernary()), "q.gguf", false, false, List.of(), profile("q.gguf")));
        // packed quantized weights (src/test/resources/packed): codes, scales, zeros and g_idx that may lie about each other
        for (String form : List.of("gptq-act-order", "awq", "nvfp4", "bnb-nf4-nested", "mlx3", "aqlm-2x8", "hqq3-axis0")) {
            s.add(new Subject("packed-" + form, f -> Files.copy(Path.of("src/test/resources/packed", form, "model.safetensors"), f.resolve("m.safetensors")),
                    "m.safetensors", false, false, List.of(), profile("m.safetensors")));
        }
        s.add(new Subject("tfjs-manifest", InputSubjects::tfjs, "m-weights_manifest.json", true, false, List.of("m.bin"),
                profile("m-weights_manifest.json")));
        s.add(new Subject("tfjs-shard", InputSubjects::tfjs, "m.bin", false, false, List.of(), profile("m-weights_manifest.json")));
        s.add(new Subject("mtx", InputSubjects::mtx, "m.mtx", true, false, List.of(), profile("m.mtx")));
        s.add(new Subject("npz", InputSubjects::npz, "m.npz", false, false, List.of(), profile("m.npz")));
        s.add(new Subject("npy", f -> Files.write(f.resolve("m.npy"), NpyFixtures.npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8, 6), }",
                le(floats(48, 5)))), "m.npy", false, false, List.of(), profile("m.npy")));
        s.add(new Subject("din", InputSubjects::din, "t.din", true, false, List.of(),
                (f, o) -> new String[] {"cachesim", "--trace", f.resolve("t.din").toString(), "--level", "L1:1KiB:2:64", "--json",
                    o.resolve("c.json").toString()}));
        for (String trace : List.of("t.din.gz", "t.sptr")) {
            s.add(new Subject(trace, f -> traced(f, trace), trace, false, false, List.of(),
                    (f, o) -> new String[] {"cachesim", "--trace", f.resolve(trace).toString(), "--level", "L1:1KiB:2:64", "--json",
                        o.resolve("c.json").toString()}));
        }
        s.add(new Subject("hw-spec", InputSubjects::spec, "cpu.yaml", true, true, List.of(),
                (f, o) -> new String[] {"simulate", "--hw", f.resolve("cpu.yaml").toString(), "--model", f.resolve("w.safetensors").toString(),
                    "--traffic", "analytical", "--batch", "4", "--json", o.resolve("s.json").toString()}));
        s.add(new Subject("recipe", InputSubjects::recipe, "r.yaml", true, true, List.of(),
                (f, o) -> new String[] {"prune", f.resolve("w.safetensors").toString(), "--recipe", f.resolve("r.yaml").toString(), "--out",
                    o.resolve("p.safetensors").toString()}));
        s.add(new Subject("activation-density", InputSubjects::densities, "d.json", true, false, List.of(),
                (f, o) -> new String[] {"profile", f.resolve("w.safetensors").toString(), "--activation-density", f.resolve("d.json").toString(),
                    "--json", o.resolve("p.json").toString()}));
        s.add(new Subject("measurements", InputSubjects::measurements, "runs.json", true, false, List.of(),
                (f, o) -> new String[] {"calibrate", "--hw", f.resolve("probe.yaml").toString(), "--measurements",
                    f.resolve("runs.json").toString(), "--out", o.resolve("cal.yaml").toString()}, 0.3));
        // counter reports are read before the fit: a refused one costs nothing, a readable one a fit (hence the share)
        s.add(new Subject("perf-stat", f -> withResource(f, "perf/baremetal-spmm.csv", "perf.csv"), "perf.csv", true, false, List.of(),
                calibrateWith("--perf", "perf.csv"), 0.3));
        s.add(new Subject("ncu-csv", f -> withResource(f, "ncu/spmm-metrics.csv", "ncu.csv"), "ncu.csv", true, false, List.of(),
                calibrateWith("--ncu", "ncu.csv"), 0.3));
        return s;
    }

    /** The measurements fixture plus a counter report from the test resources, as {@code name}. */
    private static void withResource(Path folder, String resource, String name) throws IOException {
        measurements(folder);
        Files.copy(Path.of("src/test/resources/" + resource), folder.resolve(name));
    }

    /** {@code calibrate} on the measurements fixture with a counter report ({@code --perf} or {@code --ncu}). */
    private static Args calibrateWith(String option, String file) {
        return (f, o) -> new String[] {"calibrate", "--hw", f.resolve("probe.yaml").toString(), "--measurements",
            f.resolve("runs.json").toString(), option, f.resolve(file).toString(), "--out", o.resolve("cal.yaml").toString()};
    }

    private static Args profile(String file) {
        return (f, o) -> new String[] {"profile", f.resolve(file).toString(), "--json", o.resolve("p.json").toString()};
    }

    private static Args profileFolder() {
        return (f, o) -> new String[] {"profile", f.toString(), "--json", o.resolve("p.json").toString()};
    }

    static float[] floats(int n, long seed) {
        Random r = new Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) v[i] = i % 3 == 0 ? 0 : (float) r.nextGaussian();
        return v;
    }

    static byte[] le(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) b.putFloat(x);
        return b.array();
    }

    /** A MatMul, a Conv and a ConvTranspose weight, with the Conv's input shape declared. */
    static void onnx(Path folder) throws IOException {
        ProtoWriter g = new ProtoWriter();
        g.message(1, OnnxFiles.node("mm", "MatMul", new String[] {"x", "w"}, new String[] {"y"}));
        g.message(1, OnnxFiles.node("conv", "Conv", new String[] {"img", "k"}, new String[] {"c"}, OnnxFiles.intsAttribute("kernel_shape", 3, 3)));
        g.message(1, OnnxFiles.node("up", "ConvTranspose", new String[] {"c", "kt"}, new String[] {"u"},
                OnnxFiles.intsAttribute("kernel_shape", 2, 2), OnnxFiles.intsAttribute("strides", 2, 2)));
        g.string(2, "g");
        g.message(5, OnnxFiles.rawTensor("w", OnnxFiles.FLOAT, le(floats(8 * 4, 1)), 8, 4));
        g.message(5, OnnxFiles.floatTensor("k", true, floats(4 * 2 * 9, 2), 4, 2, 3, 3));
        g.message(5, OnnxFiles.rawTensor("kt", OnnxFiles.FLOAT, le(floats(4 * 2 * 4, 3)), 4, 2, 2, 2));
        g.message(11, OnnxFiles.valueInfo("x", 2, 8));
        g.message(11, OnnxFiles.valueInfo("img", 1, 2, 8, 8));
        g.message(12, OnnxFiles.valueInfo("y", 2, 4));
        Files.write(folder.resolve("m.onnx"), OnnxFiles.model(g));
    }

    static Tensor f32(String name, long rows, long cols, long seed) {
        return new Tensor(name, DType.F32, new long[] {rows, cols}, MemorySegment.ofArray(le(floats((int) (rows * cols), seed))));
    }

    static byte[] safetensors() throws IOException {
        Path tmp = Files.createTempFile("sparseprof-fixture", ".safetensors");
        try {
            SafetensorsWriter.write(tmp, List.of(f32("fc1.weight", 8, 16, 1), f32("fc2.weight", 16, 8, 2)), Map.of("format", "pt"));
            return Files.readAllBytes(tmp);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static void torch(Path folder) throws IOException {
        Pickle p = new Pickle().beginStateDict();
        p.str("fc.weight").tensor("FloatStorage", "0", 24, 0, new long[] {6, 4}, new long[] {4, 1});
        p.str("fc_t.weight").tensor("FloatStorage", "0", 24, 0, new long[] {4, 6}, new long[] {1, 4});
        p.str("emb.weight").tensor("HalfStorage", "1", 8, 0, new long[] {4, 2}, new long[] {2, 1});
        TorchFixtures.zip(folder.resolve("m.pt"), TorchFixtures.archive("m", p.endStateDict().bytes(),
                TorchFixtures.floats(floats(24, 4)), TorchFixtures.halves(floats(8, 5))));
    }

    static void tfjs(Path folder) throws IOException {
        Files.writeString(folder.resolve("m-weights_manifest.json"), "[{\"paths\": [\"m.bin\"], \"weights\": ["
                + "{\"name\": \"conv/filters\", \"shape\": [3, 3, 2, 4], \"dtype\": \"float32\"},"
                + " {\"name\": \"dense/kernel\", \"shape\": [8, 4], \"dtype\": \"float32\", \"quantization\": {\"dtype\": \"uint8\", \"scale\": 0.5, \"min\": -2.0}}]}]");
        ByteArrayOutputStream bin = new ByteArrayOutputStream();
        bin.writeBytes(le(floats(72, 6)));
        for (int i = 0; i < 32; i++) bin.write(i % 9);
        Files.write(folder.resolve("m.bin"), bin.toByteArray());
    }

    static void mtx(Path folder) throws IOException {
        StringBuilder b = new StringBuilder("%%MatrixMarket matrix coordinate real general\n% a comment\n6 5 9\n");
        Random r = new Random(7);
        for (int e = 0; e < 9; e++) b.append(e % 6 + 1).append(' ').append(e % 5 + 1).append(' ').append(r.nextInt(100) / 10.0).append('\n');
        Files.writeString(folder.resolve("m.mtx"), b.toString());
    }


    static void npz(Path folder) throws IOException {
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(folder.resolve("m.npz")))) {
            byte[] a = NpyFixtures.npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 6), }", le(floats(24, 8)));
            ZipEntry stored = new ZipEntry("a.npy");
            stored.setMethod(ZipEntry.STORED);
            stored.setSize(a.length);
            stored.setCompressedSize(a.length);
            CRC32 crc = new CRC32();
            crc.update(a);
            stored.setCrc(crc.getValue());
            z.putNextEntry(stored);
            z.write(a);
            z.closeEntry();
            z.putNextEntry(new ZipEntry("b.npy"));
            z.write(NpyFixtures.npy("{'descr': '<f4', 'fortran_order': True, 'shape': (6, 4), }", le(floats(24, 9))));
            z.closeEntry();
        }
    }

    static void din(Path folder) throws IOException {
        StringBuilder b = new StringBuilder();
        Random r = new Random(11);
        for (int i = 0; i < 64; i++) b.append(r.nextInt(3)).append(' ').append(Long.toHexString(0x1000 + 4L * r.nextInt(2048))).append('\n');
        Files.writeString(folder.resolve("t.din"), b.toString());
    }

    /** A gzipped din or a binary trace, written by {@code sparseprof trace} of a small layer. */
    static void traced(Path folder, String name) throws IOException {
        weights(folder);
        BadInput.Outcome o = BadInput.run("trace fixture", "trace", folder.resolve("w.safetensors").toString(), "--layer", "fc1.weight",
                "--format", "csr", "--batch", "2", "--out", folder.resolve(name).toString());
        if (o.code() != Main.EXIT_OK) throw new IOException(o.describe());
    }

    static void weights(Path folder) throws IOException {
        SafetensorsWriter.write(folder.resolve("w.safetensors"), List.of(f32("fc1.weight", 8, 16, 1), f32("fc2.weight", 16, 8, 2)), Map.of());
    }

    static void spec(Path folder) throws IOException {
        weights(folder);
        Files.copy(Path.of("hardware-specs/xeon-spr.yaml"), folder.resolve("cpu.yaml"));
    }

    static void recipe(Path folder) throws IOException {
        weights(folder);
        Files.writeString(folder.resolve("r.yaml"), "version: 1\nlayers:\n  - {name: fc1.weight, pattern: \"2:4\"}\n"
                + "  - {name: fc2.weight, pattern: unstructured, sparsity: 0.5}\n");
    }

    static void densities(Path folder) throws IOException {
        weights(folder);
        Files.writeString(folder.resolve("d.json"), "{\"fc1.weight\": 0.5, \"fc2.weight\": 0.25}");
    }

    static final String MEASURED_SET = "validation/measured/intel-r-xeon-r-processor-512bit/";

    static void measurements(Path folder) throws IOException {
        Files.copy(Path.of(MEASURED_SET + "probe-this-vm.yaml"), folder.resolve("probe.yaml"));
        Files.copy(Path.of(MEASURED_SET + "this-vm-base.yaml"), folder.resolve("this-vm-base.yaml"));
        // the first 48 results (twelve layers, every format): enough to fit, small enough to fit fast
        String all = Files.readString(Path.of(MEASURED_SET + "minilm-t1-s0.9-n32.json"));
        int end = -1;
        for (int i = 0; i < 48; i++) end = all.indexOf("\n    }", end + 1);
        Files.writeString(folder.resolve("runs.json"), all.substring(0, end) + "\n    }\n  ]\n}\n");
    }
}
