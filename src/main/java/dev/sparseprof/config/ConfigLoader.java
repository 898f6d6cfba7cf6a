package dev.sparseprof.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads a versioned config document and applies its {@code preset:} chain.
 *
 * <p>A document holds {@code version:} (required, must equal the version the caller reads) and may
 * hold {@code preset: NAME}: the preset is loaded first (recursively, at most {@value #MAX_DEPTH}
 * deep, no cycles) and the document's other keys are merged onto it with {@link Overlay}. Errors
 * in the merged tree name the file the user gave.
 */
public final class ConfigLoader {
    static final int MAX_DEPTH = 8;

    private ConfigLoader() {}

    public static ConfigMap load(ConfigSource source, PresetResolver presets, int version) {
        Map<String, Object> tree = resolve(source, presets, version, 0, source.name());
        tree.remove("preset");
        return ConfigMap.root(source.shortName(), tree);
    }

    private static Map<String, Object> resolve(ConfigSource source, PresetResolver presets, int version, int depth, String chain) {
        if (depth > MAX_DEPTH) throw new ConfigException(chain + ": preset chain deeper than " + MAX_DEPTH + " (a cycle?)");
        Map<String, Object> doc = new LinkedHashMap<>(SafeYaml.parse(source));
        ConfigMap view = ConfigMap.root(source.shortName(), doc);
        if (!view.has("version")) throw view.error("version", "missing (this program reads version: " + version + ")");
        long v = view.count("version");
        if (v != version) throw view.error("version", "is " + v + ", this program reads version " + version);
        if (!view.has("preset")) return doc;
        String preset = view.string("preset");
        ConfigSource base = presets.resolve(preset, source);
        Map<String, Object> baseTree = resolve(base, presets, version, depth + 1, chain + " -> " + base.name());
        doc.remove("preset");
        baseTree.remove("preset");
        return Overlay.merge(baseTree, doc);
    }
}
