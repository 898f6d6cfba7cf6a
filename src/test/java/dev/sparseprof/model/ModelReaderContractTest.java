package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link ModelReader} contract, run over every registered reader: it takes files of its own
 * name, and an empty, one-byte, garbage or missing file is a one-line {@link ModelFormatException}
 * that starts with the file's name.
 */
class ModelReaderContractTest {
    private static final Map<String, String> FILE_NAMES = Map.of("onnx", "m.onnx", "safetensors", "m.safetensors", "npy", "m.npy",
            "npz", "m.npz", "mtx", "m.mtx", "tfjs", "m-weights_manifest.json", "hf", "m.safetensors.index.json", "gguf", "m.gguf", "torch", "m.pt");

    @TempDir Path dir;

    static Iterable<String> readers() {
        return Models.readerNames();
    }

    @ParameterizedTest
    @MethodSource("readers")
    void acceptsItsOwnFilesAndNoOtherReadersOnes(String name) {
        ModelReader reader = Models.reader(name);
        assertEquals(name, reader.name());
        for (Map.Entry<String, String> e : FILE_NAMES.entrySet()) {
            assertEquals(e.getKey().equals(name), reader.accepts(Path.of(e.getValue())), name + " on " + e.getValue());
        }
    }

    @ParameterizedTest
    @MethodSource("readers")
    void brokenFilesAreOneLineErrorsNamingTheFile(String name) throws IOException {
        byte[] garbage = new byte[1024];
        new Random(name.hashCode()).nextBytes(garbage);
        for (byte[] content : new byte[][] {new byte[0], {0x7b}, garbage}) {
            Path file = dir.resolve(FILE_NAMES.get(name));
            Files.write(file, content);
            ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.reader(name).read(file).close(),
                    name + " on " + content.length + " bytes");
            assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
            assertEquals(-1, e.getMessage().indexOf('\n'), e.getMessage());
        }
        Path missing = dir.resolve("missing-" + FILE_NAMES.get(name));
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.reader(name).read(missing));
        assertTrue(e.getMessage().startsWith(missing.toString()), e.getMessage());
    }
}
