package dev.sparseprof.hw;

import dev.sparseprof.util.SparseprofException;

/** A hardware spec is wrong or lacks what a model asked of it; the message names the spec file. */
public final class SpecException extends SparseprofException {
    private static final long serialVersionUID = 1L;

    public SpecException(String message) {
        super(message);
    }

    public SpecException(String message, Throwable cause) {
        super(message, cause);
    }
}
