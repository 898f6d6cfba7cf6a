package dev.sparseprof.cli;

import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.util.SparseprofException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The model every model command reads, given positionally ({@code profile m.onnx}) or as
 * {@code --model m.onnx}, the same in every command; mixed in with {@code @Mixin}. Neither means
 * the bundled default model.
 */
final class ModelArgument {
    /** The MODEL parameter's help. */
    static final String HELP = "Model file (.onnx, .safetensors, .npy, .npz, .mtx, TF.js *weights_manifest.json or model.json), .gguf, torch.save .bin/.pt/.pth/.ckpt (or TorchScript), torch.export .pt2, a Hugging Face folder or *.index.json, "
            + "or a bundled model: minilm (the default: " + Models.DEFAULT_NAME + ", fp32 ONNX) or minilm-int8.";

    @Parameters(index = "0", arity = "0..1", paramLabel = "MODEL", description = HELP)
    String positional;

    @Option(names = "--model", paramLabel = "MODEL", description = "The same as the MODEL parameter.")
    String option;

    /** The model's path or bundled name as given, or null for the default; both spellings must agree. */
    String name() {
        if (positional != null && option != null && !positional.equals(option)) {
            throw new SparseprofException("MODEL '" + positional + "' and --model '" + option + "' name two models: give one");
        }
        return positional != null ? positional : option;
    }

    /** The name for messages: as given, or the bundled default's. */
    String label() {
        String n = name();
        return n == null ? Models.DEFAULT_NAME : n;
    }

    @Mixin ModelShapeOptions shapes;

    /** Opens the named model, or the bundled default when none was given. */
    Model open() {
        return Models.open(name(), shapes.readOptions());
    }
}
