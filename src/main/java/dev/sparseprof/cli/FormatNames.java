package dev.sparseprof.cli;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.sparse.Formats;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;

/**
 * One vocabulary of format names across the commands: {@code formats} prices every name of
 * {@link Formats}; {@code simulate}/{@code compare} predict those with a performance model
 * ({@link FormatModels}); {@code measure}/{@code trace} run those with a kernel ({@link Kernels}).
 * A name one command cannot use gets one line saying so and which command can.
 */
final class FormatNames {
    private FormatNames() {}

    /** Checks that {@code name} has a performance model; otherwise one line naming what else takes it. */
    static void requirePredictable(String name, String option) {
        if (FormatModels.names().contains(name)) return;
        List<String> elsewhere = new ArrayList<>();
        if (isFormat(name)) elsewhere.add("'sparseprof formats' prices it");
        if (Kernels.names().contains(name)) elsewhere.add("'sparseprof measure --formats " + name + "' times it on this CPU");
        if (elsewhere.isEmpty()) {
            throw new SparseprofException(option + ": unknown format '" + name + "' (known: " + String.join(", ", FormatModels.names()) + ")");
        }
        throw new SparseprofException(option + ": no performance model for " + name + " (predicted: "
                + String.join(", ", FormatModels.names()) + "); " + String.join(", ", elsewhere));
    }

    /** Checks that {@code name} has a CPU kernel; otherwise one line naming what else takes it. */
    static void requireKernel(String name, String option) {
        if (Kernels.names().contains(name)) return;
        List<String> elsewhere = new ArrayList<>();
        if (isFormat(name)) elsewhere.add("'sparseprof formats' prices it");
        if (FormatModels.names().contains(name)) elsewhere.add("'sparseprof simulate --format " + name + "' predicts it");
        if (elsewhere.isEmpty()) {
            throw new SparseprofException(option + ": unknown format '" + name + "' (known: " + String.join(", ", Kernels.names()) + ")");
        }
        throw new SparseprofException(option + ": no CPU kernel for " + name + " (kernels: "
                + String.join(", ", Kernels.names()) + "); " + String.join(", ", elsewhere));
    }

    private static boolean isFormat(String name) {
        try {
            Formats.parse(name);
            return true;
        } catch (SparseprofException e) {
            return false;
        }
    }
}
