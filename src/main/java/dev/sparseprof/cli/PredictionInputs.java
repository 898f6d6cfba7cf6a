package dev.sparseprof.cli;

import dev.sparseprof.model.Model;
import dev.sparseprof.util.DType;
import java.io.PrintWriter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The model and value type the prediction commands (simulate, compare) run on; mixed in with {@code @Mixin}. */
final class PredictionInputs {
    @Mixin ModelArgument model;

    @Option(names = "--dtype", paramLabel = "D",
            description = "Value type (default: the weights' stored dtype when it is int8, uint8, fp16, bf16 or fp8; else fp16 on a GPU, fp32 on a CPU).")
    String dtype;

    /** Opens MODEL / --model (with the model's shape options), or the bundled default when none was given. */
    Model openModel() {
        return model.open();
    }

    /** The value type a command runs with, and why: printed once the run has succeeded, so errors stay one line. */
    record DTypeChoice(DType dtype, String why) {
        void announce(String command, PrintWriter err) {
            if (why != null) err.println(command + ": value type " + why);
        }
    }

    /**
     * The value type for {@code m}: --dtype when given, else the weights' stored dtype when it is a
     * narrow one ({@link Model#storedWeightDType}), else {@code hardwareDefault} (null: each machine's).
     */
    DTypeChoice dtypeFor(Model m, DType hardwareDefault, String machine) {
        DType given = dtypeOrNull();
        if (given != null) return new DTypeChoice(given, null);
        DType stored = m.storedWeightDType();
        if (stored != null) return new DTypeChoice(stored, stored.label() + ", the dtype the weights are stored in (--dtype overrides)");
        if (hardwareDefault == null) {
            return new DTypeChoice(null, "each machine's default (fp16 on a GPU, fp32 on a CPU); the weights are stored in fp32 or wider");
        }
        return new DTypeChoice(hardwareDefault, hardwareDefault.label() + ", " + machine + "'s default; the weights are stored in fp32 or wider (--dtype overrides)");
    }

    /** The --dtype value, or null when none was given (the caller picks the default). */
    DType dtypeOrNull() {
        return dtype == null ? null : SimulateCommand.option("--dtype", () -> DType.parse(dtype));
    }
}
