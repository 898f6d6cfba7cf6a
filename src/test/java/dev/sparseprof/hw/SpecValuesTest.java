package dev.sparseprof.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecValuesTest {
    private static ConfigMap map(String... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return ConfigMap.root("a100.yaml", m);
    }

    @Test
    void valuesParseWithUnits() {
        ConfigMap m = map("s", "48KiB", "f", "1.41GHz", "b", "2039GB/s", "p", "312TFLOPS", "t", "190ns", "c", "34cycles", "w", "512bits");
        assertEquals(48 * 1024, SpecValues.bytes(m, "s"));
        assertEquals(1.41e9, SpecValues.hertz(m, "f"), 1);
        assertEquals(2039e9, SpecValues.bytesPerSecond(m, "b"), 1);
        assertEquals(312e12, SpecValues.flopsPerSecond(m, "p"), 1);
        assertEquals(190e-9, SpecValues.seconds(m, "t"), 1e-15);
        assertEquals(34, SpecValues.cycles(m, "c"));
        assertEquals(512, SpecValues.bits(m, "w"));
        assertEquals(34 / 1.41e9, SpecValues.latencySeconds(m, "c", 1.41e9), 1e-15);
        assertEquals(190e-9, SpecValues.latencySeconds(m, "t", 1.41e9), 1e-15);
    }

    @Test
    void badUnitNamesTheKeyPath() {
        ConfigMap m = map("size", "48 furlongs", "clock", "1.41GB/s");
        assertEquals("a100.yaml: size: size '48 furlongs': unknown unit 'furlongs' (use B, KiB, MiB, GiB, or k, m, g)",
                assertThrows(ConfigException.class, () -> SpecValues.bytes(m, "size")).getMessage());
        assertEquals("a100.yaml: clock: frequency '1.41GB/s' must end in Hz",
                assertThrows(ConfigException.class, () -> SpecValues.hertz(m, "clock")).getMessage());
    }
}
