package dev.sparseprof.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The text of one configuration document and the name errors will call it by ({@code a100.yaml},
 * {@code classpath:hardware-specs/a100.yaml}). {@code directory} is where a relative
 * {@code preset:} path is resolved, or null for classpath documents.
 */
public record ConfigSource(String name, String text, Path directory) {
    /** Larger documents are refused before they are parsed (a spec is a few KiB). */
    public static final int MAX_CHARS = 1 << 20;

    public ConfigSource {
        if (name == null || text == null) throw new IllegalArgumentException("name and text are required");
        if (text.length() > MAX_CHARS) {
            throw new ConfigException(name + ": " + text.length() + " characters, more than the " + MAX_CHARS + " a config may hold");
        }
    }

    /** Reads a file, checking its size before reading it. */
    public static ConfigSource of(Path file) {
        String name = file.toString();
        try {
            if (!Files.isRegularFile(file)) throw new ConfigException(name + ": no such file");
            long size = Files.size(file);
            if (size > 4L * MAX_CHARS) {
                throw new ConfigException(name + ": " + size + " bytes, more than a config may hold");
            }
            Path parent = file.toAbsolutePath().getParent();
            return new ConfigSource(name, Files.readString(file, StandardCharsets.UTF_8), parent);
        } catch (IOException e) {
            throw new ConfigException(name + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** Reads a classpath resource, or returns null when there is none by that name. */
    public static ConfigSource ofResource(String resource) {
        try (InputStream in = ConfigSource.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) return null;
            byte[] bytes = in.readNBytes(4 * MAX_CHARS + 1);
            if (bytes.length > 4 * MAX_CHARS) throw new ConfigException("classpath:" + resource + ": too large for a config");
            return new ConfigSource("classpath:" + resource, new String(bytes, StandardCharsets.UTF_8), null);
        } catch (IOException e) {
            throw new ConfigException("classpath:" + resource + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** The short name for messages: the file name without directories. */
    public String shortName() {
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        return slash < 0 ? name : name.substring(slash + 1);
    }
}
