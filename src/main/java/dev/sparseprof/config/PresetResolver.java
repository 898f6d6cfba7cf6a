package dev.sparseprof.config;

/**
 * Finds the document a {@code preset:} value names. Contract: returns the source, or throws a
 * {@link ConfigException} that names {@code from} (the document asking) and lists the presets
 * that exist; never returns null.
 */
@FunctionalInterface
public interface PresetResolver {
    ConfigSource resolve(String preset, ConfigSource from);
}
