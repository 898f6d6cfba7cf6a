package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The small files under models/ (see models/README.md) stay readable and mean what the README says. */
class FixturesTest {
    private static long count(Model m, LayerKind kind) {
        return m.layers().stream().filter(l -> l.kind() == kind).count();
    }

    @Test
    void fixturesLoad() {
        try (Model cnn = Models.open(Path.of("models/tiny-cnn.onnx"))) {
            assertEquals(2, count(cnn, LayerKind.CONV));
            assertEquals(2, count(cnn, LayerKind.LINEAR));
        }
        try (Model mlp = Models.open(Path.of("models/tiny-mlp.safetensors"))) {
            assertEquals(2, count(mlp, LayerKind.LINEAR));
            assertEquals(3, mlp.tensors().size());
        }
        try (Model mtx = Models.open(Path.of("models/tiny-banded.mtx"))) {
            float[] d = mtx.layers().get(0).matrix().toDense();
            assertEquals(-1.0f, d[1]);
            assertEquals(-1.0f, d[6]);
            assertEquals(0.0f, d[2]);
        }
    }
}
