package dev.sparseprof.hw;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigLoader;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.config.PresetResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Loading hardware specs by file path or preset name, and the registry of bundled presets.
 *
 * <p>The bundled specs live in {@code hardware-specs/} at the repository root, the one source of
 * truth: the build copies that folder onto the class path ({@code classpath:hardware-specs/}), so
 * a preset works from any directory, and {@code --hw hardware-specs/a100.yaml} reads the same file
 * from a checkout. A spec's {@code preset:} names a bundled preset or a path relative to the spec.
 */
public final class HardwareSpecs {
    /** Preset name -> bundled file, in the order {@code --hw list} shows them. */
    private static final Map<String, String> PRESETS = new LinkedHashMap<>();

    static {
        PRESETS.put("a100-80gb", "a100.yaml");
        PRESETS.put("a100-40gb", "a100-40gb.yaml");
        PRESETS.put("h100-sxm", "h100-sxm.yaml");
        PRESETS.put("h200", "h200.yaml");
        PRESETS.put("epyc-zen4-2c", "epyc-zen4-2c.yaml");
        PRESETS.put("epyc-zen5-2c", "epyc-zen5-2c.yaml");
        PRESETS.put("xeon-spr", "xeon-spr.yaml");
    }

    private static final String RESOURCE_DIR = "hardware-specs/";

    private HardwareSpecs() {}

    public static List<String> presetNames() {
        return List.copyOf(PRESETS.keySet());
    }

    /** A spec from a file path if one exists there, else from a preset name. */
    public static HardwareSpec load(String pathOrPreset) {
        Path p = Path.of(pathOrPreset);
        if (Files.isRegularFile(p)) {
            try {
                return load(ConfigSource.of(p));
            } catch (ConfigException e) {
                throw new SpecException(e.getMessage(), e);
            }
        }
        String preset = presetKey(pathOrPreset);
        if (preset != null) return load(bundled(preset));
        if (pathOrPreset.endsWith(".yaml") || pathOrPreset.endsWith(".yml") || pathOrPreset.contains("/")) {
            throw new SpecException(pathOrPreset + ": no such file (presets: " + String.join(", ", PRESETS.keySet()) + ")");
        }
        throw new SpecException("--hw " + pathOrPreset + ": neither a file nor a preset (presets: "
                + String.join(", ", PRESETS.keySet()) + ")");
    }

    /**
     * The preset a name means: a preset name ({@code a100-80gb}) or the base name of its bundled
     * file ({@code a100}, as in {@code hardware-specs/a100.yaml}); null when neither.
     */
    public static String presetKey(String name) {
        if (PRESETS.containsKey(name)) return name;
        for (Map.Entry<String, String> e : PRESETS.entrySet()) {
            if (e.getValue().equals(name + ".yaml")) return e.getKey();
        }
        return null;
    }

    public static HardwareSpec load(ConfigSource source) {
        try {
            return SpecReader.read(ConfigLoader.load(source, RESOLVER, SpecReader.VERSION));
        } catch (ConfigException e) {
            throw new SpecException(e.getMessage(), e);
        }
    }

    /** Parses spec text (tests, calibration overlays held in memory). */
    public static HardwareSpec parse(String name, String yaml) {
        return load(new ConfigSource(name, yaml, null));
    }

    private static ConfigSource bundled(String preset) {
        ConfigSource s;
        try {
            s = ConfigSource.ofResource(RESOURCE_DIR + PRESETS.get(preset));
        } catch (ConfigException e) {
            throw new SpecException(e.getMessage(), e);
        }
        if (s == null) throw new IllegalStateException("bundled spec for preset " + preset + " missing from the class path");
        return s;
    }

    private static final PresetResolver RESOLVER = (preset, from) -> {
        String key = presetKey(preset);
        if (key != null) return bundled(key);
        if (from.directory() != null) {
            Path p = from.directory().resolve(preset);
            if (Files.isRegularFile(p)) return ConfigSource.of(p);
        }
        throw new SpecException(from.shortName() + ": preset: '" + preset + "' is neither a preset nor a file next to it (presets: "
                + String.join(", ", PRESETS.keySet()) + ")");
    };
}
