package dev.sparseprof.hw;

import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.util.Locale;

/** Values with units in a spec mapping, parsed with {@link Units}; faults name the key path. */
final class SpecValues {
    private SpecValues() {}

    static long bytes(ConfigMap m, String key) {
        return m.parse(key, Units::parseBytes, SparseprofException.class);
    }

    static double hertz(ConfigMap m, String key) {
        return m.parse(key, Units::parseHertz, SparseprofException.class);
    }

    static double bytesPerSecond(ConfigMap m, String key) {
        return m.parse(key, Units::parseBytesPerSecond, SparseprofException.class);
    }

    static double flopsPerSecond(ConfigMap m, String key) {
        return m.parse(key, Units::parseFlopsPerSecond, SparseprofException.class);
    }

    static double seconds(ConfigMap m, String key) {
        return m.parse(key, Units::parseSeconds, SparseprofException.class);
    }

    static double cycles(ConfigMap m, String key) {
        return m.parse(key, Units::parseCycles, SparseprofException.class);
    }

    static long bits(ConfigMap m, String key) {
        return m.parse(key, Units::parseBits, SparseprofException.class);
    }

    /** A latency given either in cycles of {@code clockHertz} ({@code 34cycles}) or in time ({@code 190ns}). */
    static double latencySeconds(ConfigMap m, String key, double clockHertz) {
        String text = m.string(key).toLowerCase(Locale.ROOT);
        return text.endsWith("cycles") || text.endsWith("cycle") ? cycles(m, key) / clockHertz : seconds(m, key);
    }
}
