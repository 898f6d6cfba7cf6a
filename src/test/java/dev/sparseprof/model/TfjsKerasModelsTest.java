package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three real TF.js models of the npm package {@code nsfwjs} 4.2.1, which ships them wrapped in
 * {@code .js} modules (test.sh unwraps them with {@code scripts/unwrap-js-models.js} into
 * target/npm/nsfwjs-models): mobilenet_v2 and inception_v3 are Keras layers models whose
 * {@code InputLayer} states {@code batch_input_shape} {@code [null, 224, 224, 3]} and
 * {@code [null, 299, 299, 3]}, mobilenet_v2_mid a graph model with a 224 x 224 {@code Placeholder}.
 * Their GEMM layers, elements and non-zeros are pinned to an independent decode (numpy, 7 Dec 2026),
 * and with no {@code --input-size} their first convs get the output pixels the layers' arithmetic
 * gives by hand.
 */
class TfjsKerasModelsTest {
    static final Path MODELS = Path.of("target/npm/nsfwjs-models");

    /** A model, its GEMM layers, their weights' elements and non-zeros, and its first conv's output pixels. */
    private record Pin(String model, int layers, long elements, long nonZeros, long firstConvPixels) {}

    private static final List<Pin> PINS = List.of(
            // 224, ZeroPadding2D ((0, 1), (0, 1)) to 225, Conv2D 3x3 stride 2 valid: 112 x 112
            new Pin("mobilenet_v2", 55, 2_550_848, 2_487_412, 112L * 112),
            // the graph's own padding and stride-2 conv: 112 x 112
            new Pin("mobilenet_v2_mid", 53, 4_276_800, 4_130_762, 112L * 112),
            // 299, Conv2D 3x3 stride 2 valid: (299 - 3) / 2 + 1 = 149
            new Pin("inception_v3", 97, 22_308_832, 20_575_732, 149L * 149));

    @Test
    void realLayersModelsFollowTheInputSizeTheyStateAndCountAsAnIndependentDecodeDoes() throws IOException {
        assumeTrue(Files.isDirectory(MODELS), "nsfwjs's models absent (./test.sh unpacks nsfwjs and unwraps them with node)");
        for (Pin pin : PINS) {
            try (Model m = Models.open(MODELS.resolve(pin.model()).resolve("model.json"))) {
                assertEquals(pin.layers(), m.layers().size(), pin.model());
                long elements = 0;
                long nonZeros = 0;
                for (GemmLayer l : m.layers()) {
                    elements += l.params();
                    for (float v : l.matrix().toDense()) nonZeros += v != 0 ? 1 : 0;
                }
                assertEquals(pin.elements(), elements, pin.model());
                assertEquals(pin.nonZeros(), nonZeros, pin.model());
                GemmLayer first = m.layers().get(0);
                assertEquals(27, first.cols(), first.name() + ": a 3x3 conv over 3 channels");
                assertEquals(pin.firstConvPixels(), first.columnsPerSample(), pin.model() + " " + first.name());
                assertTrue(m.layers().stream().filter(l -> l.columnsPerSample() > 1).count() >= pin.layers() - 3,
                        pin.model() + ": every conv has its output pixels, only the Dense heads count N = batch");
            }
        }
    }
}
