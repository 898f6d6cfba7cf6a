package dev.sparseprof.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Deep merge of an override document onto a base (a preset): mappings merge key by key, anything
 * else (scalars, lists) in the override replaces the base's value. Key order follows the base,
 * with new keys appended. Neither input is modified.
 */
public final class Overlay {
    private Overlay() {}

    public static Map<String, Object> merge(Map<String, Object> base, Map<String, Object> override) {
        Map<String, Object> out = new LinkedHashMap<>(base);
        for (Map.Entry<String, Object> e : override.entrySet()) {
            Object b = out.get(e.getKey());
            Object o = e.getValue();
            if (b instanceof Map<?, ?> bm && o instanceof Map<?, ?> om) {
                @SuppressWarnings("unchecked")
                Map<String, Object> merged = merge((Map<String, Object>) bm, (Map<String, Object>) om);
                out.put(e.getKey(), merged);
            } else {
                out.put(e.getKey(), o);
            }
        }
        return out;
    }
}
