package dev.sparseprof.measure.external;

import dev.sparseprof.util.SparseprofException;

/** A tool's output file ({@code perf stat -x,}, {@code ncu --csv}) that cannot be read as such; the message names the file and line. */
public final class ExternalFormatException extends SparseprofException {
    public ExternalFormatException(String source, int lineNumber, String fault) {
        super(source + ":" + lineNumber + ": " + fault);
    }

    public ExternalFormatException(String source, String fault) {
        super(source + ": " + fault);
    }
}
