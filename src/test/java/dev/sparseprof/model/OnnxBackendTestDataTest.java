package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The ONNX project's own backend test data, 1072 real models (Debian's {@code libonnx-testdata}
 * 1.12.0-2, which test.sh unpacks into target/debian): one model per operator and attribute case
 * ({@code node/}), PyTorch-converted layers ({@code pytorch-converted/}, {@code pytorch-operator/})
 * and small graphs ({@code simple/}). Every one opens; the 34 with GEMM layers (convolutions 1-D to
 * 3-D, grouped, depthwise and transposed, linears, embeddings) read exactly the elements and
 * non-zeros that onnx 1.12's own decoder ({@code numpy_helper.to_array}) gives their initializers
 * (src/test/resources/onnx-backend-test-data.tsv). The node tests take their weights as graph
 * inputs, not initializers, so they have no GEMM layer.
 */
class OnnxBackendTestDataTest {
    private static final Path DATA = OnnxBackendTestData.DATA;

    @Test
    void everyModelOpensAndTheOnesWithWeightsCountAsOnnxDecodesThem() throws IOException {
        OnnxBackendTestData.assumePresent();
        List<Path> models;
        try (Stream<Path> s = Files.walk(DATA)) {
            models = s.filter(p -> p.getFileName().toString().endsWith(".onnx")).sorted().toList();
        }
        assertEquals(1072, models.size());
        List<String> withLayers = new ArrayList<>();
        for (Path p : models) {
            try (Model m = Models.open(p)) {
                if (!m.layers().isEmpty()) withLayers.add(DATA.relativize(p).toString());
            }
        }
        List<String[]> pins = OnnxBackendTestData.pins();
        assertEquals(pins.stream().map(f -> f[0]).toList(), withLayers, "the models with GEMM layers");
        for (String[] f : pins) {
            try (Model m = Models.open(DATA.resolve(f[0]))) {
                assertEquals(Integer.parseInt(f[1]), m.layers().size(), f[0]);
                long elements = 0;
                long nonZeros = 0;
                for (GemmLayer l : m.layers()) {
                    elements += l.params();
                    float[] row = new float[l.cols()];
                    for (int r = 0; r < l.rows(); r++) {
                        l.matrix().copyRow(r, row, 0);
                        for (float v : row) nonZeros += v != 0 ? 1 : 0;
                    }
                }
                assertEquals(Long.parseLong(f[2]), elements, f[0] + ": elements");
                assertEquals(Long.parseLong(f[3]), nonZeros, f[0] + ": non-zeros");
                assertTrue(elements > 0, f[0]);
            }
        }
    }
}
