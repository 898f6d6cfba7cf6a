package dev.sparseprof.trace;

import dev.sparseprof.util.SparseprofException;

/** A trace file that cannot be read: the message names the file, the line (or byte offset) and the fault. */
public final class TraceFormatException extends SparseprofException {
    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code "file:line: fault"}, the compiler-style one-liner. */
    public static TraceFormatException atLine(String source, long line, String fault) {
        return new TraceFormatException(source + ":" + line + ": " + fault);
    }
}
