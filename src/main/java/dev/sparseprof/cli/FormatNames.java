package dev.sparseprof.cli;

import dev.sparseprof.kernel.Kernels;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.sparse.Formats;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.Collection;
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
        require(name, option, FormatModels.names(), "performance model", true);
    }

    /** Checks that {@code name} has a CPU kernel; otherwise one line naming what else takes it. */
    static void requireKernel(String name, String option) {
        require(name, option, Kernels.names(), "CPU kernel", false);
    }

    private static void require(String name, String option, Collection<String> known, String what, boolean predicting) {
        if (known.contains(name)) return;
        List<String> elsewhere = new ArrayList<>();
        if (isFormat(name)) elsewhere.add("'sparseprof formats' prices it");
        if (!predicting && FormatModels.names().contains(name)) {
            elsewhere.add("'sparseprof simulate --format " + name + "' predicts it");
        }
        if (predicting && Kernels.names().contains(name)) {
            elsewhere.add("'sparseprof measure --formats " + name + "' times it on this CPU");
        }
        String list = " (known: " + String.join(", ", known) + ")";
        if (elsewhere.isEmpty()) throw new SparseprofException(option + ": unknown format '" + name + "'" + list);
        throw new SparseprofException(option + ": no " + what + " for " + name + list + "; " + String.join(", ", elsewhere));
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
