package dev.sparseprof.calibrate;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.hw.HardwareSpecs;
import java.nio.file.Path;
import dev.sparseprof.util.SparseprofException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A hardware spec overlay as {@code simulate --hw} takes it: {@code preset:} plus the keys that
 * override it (a tree of {@link String} scalars with their units, {@link List}s and {@link Map}s, in
 * the perf engineer's spec schema), each key optionally with a comment saying where its number came
 * from. {@link #toYaml()} prints it; {@link #check()} loads the printed text through
 * {@link HardwareSpecs} so a spec that would not load is never written.
 *
 * @param preset    the base spec's preset name
 * @param header    comment lines at the top (provenance: machine, date, command)
 * @param overrides key -> value, in print order
 * @param comments  dotted key path ({@code cpu.dram.bandwidth}) -> end-of-line comment
 */
public record SpecOverlay(String preset, List<String> header, Map<String, Object> overrides, Map<String, String> comments) {
    public SpecOverlay {
        Objects.requireNonNull(preset);
        header = List.copyOf(header);
        overrides = new LinkedHashMap<>(overrides);
        comments = new LinkedHashMap<>(comments);
    }

    public String toYaml() {
        StringBuilder out = new StringBuilder();
        for (String h : header) out.append("# ").append(h).append('\n');
        out.append("version: 1\n");
        out.append("preset: ").append(preset).append('\n');
        writeMap(out, overrides, 0, "");
        return out.toString();
    }

    /** Loads the printed overlay (preset names resolved) and returns the spec it gives; a fault names the key. */
    public HardwareSpec check() {
        return check(null);
    }

    /** As {@link #check()}, with a {@code preset:} path resolved against {@code directory} (where the overlay goes). */
    public HardwareSpec check(Path directory) {
        try {
            return HardwareSpecs.load(new ConfigSource("calibrated overlay", toYaml(), directory));
        } catch (SparseprofException e) {
            throw new SparseprofException("the overlay would not load, so it is not written: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private void writeMap(StringBuilder out, Map<String, Object> map, int indent, String path) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            String key = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
            pad(out, indent).append(e.getKey()).append(':');
            Object v = e.getValue();
            if (v instanceof Map<?, ?> m) {
                comment(out, key).append('\n');
                writeMap(out, (Map<String, Object>) m, indent + 2, key);
            } else if (v instanceof List<?> list) {
                comment(out, key).append('\n');
                for (Object item : list) writeListItem(out, item, indent + 2, key);
            } else {
                out.append(' ').append(scalar(String.valueOf(v)));
                comment(out, key).append('\n');
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void writeListItem(StringBuilder out, Object item, int indent, String path) {
        if (!(item instanceof Map<?, ?> m)) {
            pad(out, indent).append("- ").append(scalar(String.valueOf(item))).append('\n');
            return;
        }
        boolean first = true;
        for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
            pad(out, indent).append(first ? "- " : "  ").append(e.getKey()).append(": ").append(scalar(String.valueOf(e.getValue())));
            out.append('\n');
            first = false;
        }
    }

    private StringBuilder comment(StringBuilder out, String key) {
        String c = comments.get(key);
        if (c != null) out.append("   # ").append(c);
        return out;
    }

    private static StringBuilder pad(StringBuilder out, int indent) {
        return out.append(" ".repeat(indent));
    }

    /** Plain when safe, else double-quoted. */
    static String scalar(String s) {
        boolean plain = !s.isEmpty();
        for (int i = 0; i < s.length() && plain; i++) {
            char c = s.charAt(i);
            plain = Character.isLetterOrDigit(c) || c == '.' || c == '/' || c == '-' || c == '_';
        }
        if (plain) return s;
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
