package dev.sparseprof.util;

/**
 * The root of every exception that means "the input is wrong", never "the program is wrong".
 *
 * <p>The CLI maps it to exit code 2 and prints {@link #getMessage()} as one line; a stack trace is
 * printed only with {@code --verbose}. Any other throwable is a bug (exit code 1). Subtypes live in
 * the package that raises them ({@code ModelFormatException}, {@code SpecException}, ...).
 *
 * <p>Messages name the thing at fault first: {@code "model.onnx: tensor 'w' claims 4096 bytes, 12 left"}.
 */
public class SparseprofException extends RuntimeException {
    public SparseprofException(String message) {
        super(message);
    }

    public SparseprofException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A fault in a named source (a file, an option): the message becomes {@code "source: fault"}. */
    public static SparseprofException in(String source, String fault) {
        return new SparseprofException(source + ": " + fault);
    }
}
