package dev.sparseprof.cli;

import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The {@code --json FILE|-} / {@code --csv FILE} convention: {@code -} means standard output (and
 * then the JSON is all that goes there: the human table is suppressed); a file is written
 * atomically.
 */
final class Outputs {
    private Outputs() {}

    /** True when the JSON takes standard output, so the text table must stay off it. */
    static boolean jsonOnStdout(String jsonTarget) {
        return "-".equals(jsonTarget);
    }

    /**
     * Fails early, before any long work, when {@code target} (a file, or "-", or null) could not be
     * written at the end: a missing folder, or one where no file can be created. The message starts
     * with the option.
     */
    static void checkFolder(String option, String target) {
        if (target == null || "-".equals(target)) return;
        try {
            AtomicFiles.checkWritable(Path.of(target));
        } catch (SparseprofException e) {
            throw new SparseprofException(option + " " + e.getMessage(), e);
        }
    }

    /**
     * Writes the text that {@code text} makes to {@code target} ("-" is {@code out}); when target is
     * null (the option not given) does nothing and never calls {@code text}: a profile's JSON of a
     * 291-layer checkpoint is a few hundred kB, built for nothing when only the table was asked for.
     */
    static void write(String target, Supplier<String> text, PrintWriter out) {
        if (target == null) return;
        String made = text.get();
        if ("-".equals(target)) {
            out.print(made);
            out.flush();
        } else {
            AtomicFiles.writeString(Path.of(target), made);
        }
    }
}
