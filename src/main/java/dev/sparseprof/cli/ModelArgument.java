package dev.sparseprof.cli;

import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** The optional MODEL positional parameter of the model commands; mixed in with {@code @Mixin}. */
final class ModelArgument {
    /** The MODEL parameter's help. */
    static final String HELP = "Model file (.onnx, .safetensors, .npy, .npz, .mtx, TF.js *weights_manifest.json or model.json), "
            + "or a bundled model: minilm (the default: " + Models.DEFAULT_NAME + ", fp32 ONNX) or minilm-int8.";

    @Parameters(index = "0", arity = "0..1", paramLabel = "MODEL", description = HELP)
    String model;

    @Mixin ModelShapeOptions shapes;

    /** Opens the named model, or the bundled default when none was given. */
    Model open() {
        return Models.open(model, shapes.readOptions());
    }
}
