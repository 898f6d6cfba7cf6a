package dev.sparseprof.cli;

import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.util.DType;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The model and value type the prediction commands (simulate, compare) run on; mixed in with {@code @Mixin}. */
final class PredictionInputs {
    @Option(names = "--model", paramLabel = "MODEL", description = "Model file (default: the bundled all-MiniLM-L6-v2).")
    String model;

    @Option(names = "--dtype", paramLabel = "D",
            description = "Value type (default: the weights' stored dtype when it is int8, uint8, fp16, bf16 or fp8; else fp16 on a GPU, fp32 on a CPU).")
    String dtype;

    @Mixin ModelShapeOptions shapes;

    /** Opens --model, or the bundled default when none was given. */
    Model openModel() {
        return Models.open(model, shapes.readOptions());
    }

    /** The --dtype value, or null when none was given (the caller picks the default). */
    DType dtypeOrNull() {
        return dtype == null ? null : SimulateCommand.option("--dtype", () -> DType.parse(dtype));
    }
}
