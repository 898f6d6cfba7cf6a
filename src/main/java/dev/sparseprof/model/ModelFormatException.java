package dev.sparseprof.model;

import dev.sparseprof.util.SparseprofException;

/** A model file that cannot be read as what it claims to be: truncated, corrupt, lying, hostile. */
public class ModelFormatException extends SparseprofException {
    private static final long serialVersionUID = 1L;

    public ModelFormatException(String message) {
        super(message);
    }

    public ModelFormatException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code "file: fault"}, the one-line form the CLI prints. */
    public static ModelFormatException in(Object file, String fault) {
        return new ModelFormatException(file + ": " + fault);
    }

    /** Hides {@link SparseprofException#in(String, String)} so that a String source keeps this type. */
    public static ModelFormatException in(String file, String fault) {
        return new ModelFormatException(file + ": " + fault);
    }
}
