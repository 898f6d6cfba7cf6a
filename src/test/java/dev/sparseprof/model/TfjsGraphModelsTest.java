package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Eleven real TF.js graph models of another converter's making than face-api's: the models folder of
 * the npm package {@code @vladmandic/human} 3.3.6 (test.sh unpacks it into target/npm/packs), fp16,
 * uint8 and fp32 weights, convolutions (depthwise among them), matmuls, and weights of ops that are no
 * GEMM (paddings, constants). Each model's layers, the weight tensors they read, and those tensors'
 * elements and non-zeros are pinned to what an independent decode of the manifests and {@code .bin}
 * files gave (numpy, 7 Dec 2026: fp16 as numpy's float16, affine uint8 as {@code q·scale + min} with
 * the code nearest {@code -min/scale} taken as 0, the rule {@link TfjsQuantization} documents).
 */
class TfjsGraphModelsTest {
    static final Path HUMAN = Path.of("target/npm/packs/@vladmandic+human/models");

    /** A model file, its GEMM layers, and the elements and non-zeros of the weight tensors they read. */
    private record Pin(String file, int layers, long elements, long nonZeros) {}

    private static final List<Pin> PINS = List.of(
            new Pin("antispoof.json", 5, 426_304, 142_020),
            new Pin("blazeface.json", 69, 132_936, 132_924),
            new Pin("centernet.json", 89, 2_000_624, 1_546_206),
            new Pin("emotion.json", 13, 203_872, 203_872),
            new Pin("facemesh.json", 55, 732_864, 732_864),
            new Pin("faceres.json", 30, 3_473_088, 3_355_670),
            new Pin("handlandmark-lite.json", 51, 1_000_160, 876_418),
            new Pin("handtrack.json", 123, 2_848_448, 2_784_046),
            new Pin("iris.json", 81, 640_192, 640_192),
            new Pin("liveness.json", 6, 147_760, 147_760),
            new Pin("movenet-lightning.json", 74, 2_300_184, 2_299_834));

    @Test
    void everyModelCountsItsWeightsAsAnIndependentDecodeDoes() throws IOException {
        assumeTrue(Files.isDirectory(HUMAN), "@vladmandic/human absent (./test.sh unpacks it into target/npm/packs)");
        for (Pin pin : PINS) {
            try (Model m = Models.open(HUMAN.resolve(pin.file()))) {
                assertEquals(pin.layers(), m.layers().size(), pin.file());
                Set<String> tensors = new HashSet<>();
                long elements = 0;
                long nonZeros = 0;
                for (GemmLayer l : m.layers()) {
                    assertTrue(tensors.add(l.name()), pin.file() + ": " + l.name() + " read twice");
                    float[] row = new float[l.cols()];
                    for (int r = 0; r < l.rows(); r++) {
                        l.matrix().copyRow(r, row, 0);
                        for (float v : row) {
                            assertTrue(Float.isFinite(v), pin.file() + " " + l.name());
                            if (v != 0f) nonZeros++;
                        }
                    }
                    elements += (long) l.rows() * l.cols();
                }
                assertEquals(pin.elements(), elements, pin.file() + ": elements");
                assertEquals(pin.nonZeros(), nonZeros, pin.file() + ": non-zeros");
            }
        }
        // antispoof's input is stated as [-1, 128, 128, 3]: its first conv (3x3, VALID) has (128 - 2)^2 output pixels, no --input-size needed
        try (Model m = Models.open(HUMAN.resolve("antispoof.json"))) {
            GemmLayer first = m.layers().get(0);
            assertEquals(27, first.cols(), first.name());
            assertEquals(126L * 126, first.columnsPerSample(), first.name());
        }
    }
}
