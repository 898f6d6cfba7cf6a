package dev.sparseprof.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A strict, read-only view of one mapping in a loaded config, with the key path that leads to it.
 *
 * <p>Binding code first declares the keys a mapping may hold with {@link #allow}; any other key is
 * an error naming the full key path and the allowed keys
 * ({@code a100.yaml: gpu.l2.sise: unknown key (allowed: size, line, ...)}). Accessors name the key
 * path when a value is missing or wrong; values with units go through {@link #parse} with the
 * caller's parser (hw uses util.Units), so a binding never has to build a message itself.
 */
public final class ConfigMap {
    private final String file;
    private final String path;
    private final Map<String, Object> entries;

    ConfigMap(String file, String path, Map<String, Object> entries) {
        this.file = file;
        this.path = path;
        this.entries = entries;
    }

    /** A root view over a parsed tree (tests and callers that assemble trees themselves). */
    public static ConfigMap root(String file, Map<String, Object> entries) {
        return new ConfigMap(file, "", new LinkedHashMap<>(entries));
    }

    public String file() {
        return file;
    }

    public String path() {
        return path;
    }

    /** Fails on the first key that is not in {@code allowed}; returns this for chaining. */
    public ConfigMap allow(String... allowed) {
        for (String key : entries.keySet()) {
            boolean ok = false;
            for (String a : allowed) ok |= a.equals(key);
            if (!ok) throw error(key, "unknown key (allowed: " + String.join(", ", allowed) + ")");
        }
        return this;
    }

    public boolean has(String key) {
        return entries.containsKey(key);
    }

    /** An error about {@code key} in this mapping, with the file and full key path. */
    public ConfigException error(String key, String fault) {
        return new ConfigException(file + ": " + pathOf(key) + ": " + fault);
    }

    /** An error about this mapping as a whole. */
    public ConfigException error(String fault) {
        return new ConfigException(file + ": " + (path.isEmpty() ? "(top level)" : path) + ": " + fault);
    }

    public String string(String key) {
        Object v = entries.get(key);
        if (v == null) throw error(key, "missing");
        if (!(v instanceof String s)) throw error(key, "must be a single value, not a " + (v instanceof Map ? "mapping" : "list"));
        if (s.isBlank()) throw error(key, "empty value");
        return s.trim();
    }

    public String string(String key, String fallback) {
        return has(key) ? string(key) : fallback;
    }

    /** A non-negative whole number; {@code 108}, {@code 4096}. */
    public long count(String key) {
        String s = string(key);
        try {
            long v = Long.parseLong(s.replace("_", ""));
            if (v < 0) throw error(key, "must not be negative, got " + s);
            return v;
        } catch (NumberFormatException e) {
            throw error(key, "'" + s + "' is not a whole number");
        }
    }

    public long count(String key, long fallback) {
        return has(key) ? count(key) : fallback;
    }

    /** A positive int that fits an array index or a loop bound (SMs, cores, ways, warps). */
    public int positiveInt(String key) {
        long v = count(key);
        if (v <= 0 || v > Integer.MAX_VALUE) throw error(key, "must be a positive whole number, got " + v);
        return (int) v;
    }

    public int positiveInt(String key, int fallback) {
        return has(key) ? positiveInt(key) : fallback;
    }

    /** A plain number without a unit (ratios, efficiencies). */
    public double number(String key) {
        String s = string(key);
        try {
            double v = Double.parseDouble(s);
            if (!Double.isFinite(v)) throw error(key, "must be finite, got " + s);
            return v;
        } catch (NumberFormatException e) {
            throw error(key, "'" + s + "' is not a number");
        }
    }

    public double number(String key, double fallback) {
        return has(key) ? number(key) : fallback;
    }

    public boolean bool(String key, boolean fallback) {
        if (!has(key)) return fallback;
        return switch (string(key)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw error(key, "must be true or false, got '" + string(key) + "'");
        };
    }

    /**
     * A value with a unit, parsed by {@code parser}; a negative value, or a parser's
     * {@code IllegalArgumentException} or {@code faultType} exception, becomes an error with the key path.
     */
    public <T> T parse(String key, Function<String, T> parser, Class<? extends RuntimeException> faultType) {
        String s = string(key);
        if (s.startsWith("-")) throw error(key, "must not be negative, got " + s);
        try {
            return parser.apply(s);
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException || faultType.isInstance(e)) throw error(key, e.getMessage());
            throw e;
        }
    }

    public ConfigMap map(String key) {
        Object v = entries.get(key);
        if (v == null) throw error(key, "missing");
        return asMap(key, pathOf(key), v);
    }

    /** The nested mapping, or an empty one when the key is absent. */
    public ConfigMap mapOrEmpty(String key) {
        return has(key) ? map(key) : new ConfigMap(file, pathOf(key), Map.of());
    }

    /** A list of mappings; each element's path is {@code key[i]}. */
    public List<ConfigMap> list(String key) {
        Object v = entries.get(key);
        if (v == null) throw error(key, "missing");
        if (!(v instanceof List<?> items)) throw error(key, "must be a list");
        List<ConfigMap> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) out.add(asMap(key, pathOf(key) + "[" + i + "]", items.get(i)));
        return out;
    }

    /** The keys in document order (for mappings whose keys are data, like peaks per dtype). */
    public List<String> keys() {
        return List.copyOf(entries.keySet());
    }

    private ConfigMap asMap(String key, String childPath, Object v) {
        if (!(v instanceof Map<?, ?> m)) {
            throw new ConfigException(file + ": " + childPath + ": must be a mapping of keys to values");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> child = (Map<String, Object>) m;
        return new ConfigMap(file, childPath, child);
    }

    private String pathOf(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
