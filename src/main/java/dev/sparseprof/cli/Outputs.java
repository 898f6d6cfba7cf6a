package dev.sparseprof.cli;

import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import java.nio.file.Path;

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

    /** Writes {@code text} to {@code target} ("-" is {@code out}); does nothing when target is null. */
    static void write(String target, String text, PrintWriter out) {
        if (target == null) return;
        if ("-".equals(target)) {
            out.print(text);
            out.flush();
        } else {
            AtomicFiles.writeString(Path.of(target), text);
        }
    }
}
