package dev.sparseprof.cli;

import dev.sparseprof.model.Model;
import dev.sparseprof.util.DType;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The model and value type the prediction commands (simulate, compare) run on; mixed in with {@code @Mixin}. */
final class PredictionInputs {
    @Mixin ModelArgument model;

    @Option(names = "--dtype", paramLabel = "D", description = "Value type (default: fp16 on a GPU, fp32 on a CPU).")
    String dtype;

    /** Opens MODEL / --model, or the bundled default when none was given. */
    Model openModel() {
        return model.open();
    }

    /** The --dtype value, or null when none was given (the caller picks the default). */
    DType dtypeOrNull() {
        return dtype == null ? null : SimulateCommand.option("--dtype", () -> DType.parse(dtype));
    }
}
