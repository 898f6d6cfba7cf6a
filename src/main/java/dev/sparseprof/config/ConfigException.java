package dev.sparseprof.config;

/**
 * A configuration file is malformed, misspelt or out of range; the message names the file and key
 * path in one line. The config package shares layer 0 with util and so cannot extend
 * {@code SparseprofException}: each package that loads a config (hw for specs) turns this into its
 * own {@code SparseprofException} subtype at its public entry point, so the CLI still exits with 2.
 */
public class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
