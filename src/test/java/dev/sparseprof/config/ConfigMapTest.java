package dev.sparseprof.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigMapTest {
    private static ConfigMap load(String yaml) {
        return ConfigMap.root("a100.yaml", SafeYaml.parse(new ConfigSource("a100.yaml", yaml, null)));
    }

    @Test
    void unknownKeyNamesPathAndAllowedKeys() {
        ConfigMap root = load("gpu:\n  l2:\n    sise: 40MiB\n");
        ConfigException e = assertThrows(ConfigException.class,
                () -> root.map("gpu").map("l2").allow("size", "line", "sector", "latency", "bandwidth"));
        assertEquals("a100.yaml: gpu.l2.sise: unknown key (allowed: size, line, sector, latency, bandwidth)", e.getMessage());
    }

    @Test
    void valuesParseWithTheCallersParser() {
        ConfigMap m = load("n: 108\nx: 1.5\nh: 0x10\nb: true\nhex: twelve\nneg: -1GHz\n");
        assertEquals(108, m.positiveInt("n"));
        assertEquals(1.5, m.number("x"));
        assertEquals(16, m.count("h")); // YAML 1.2 core schema reads 0x10 as 16
        assertEquals(true, m.bool("b", false));
        assertEquals(12, m.count("missing", 12));
        ConfigException e = assertThrows(ConfigException.class, () -> m.parse("hex", Long::parseLong, IllegalStateException.class));
        assertEquals("a100.yaml: hex: For input string: \"twelve\"", e.getMessage());
        e = assertThrows(ConfigException.class, () -> m.parse("neg", Long::parseLong, IllegalStateException.class));
        assertEquals("a100.yaml: neg: must not be negative, got -1GHz", e.getMessage());
    }

    @Test
    void badValuesNameTheKeyPath() {
        ConfigMap m = load("l1:\n  size: 48 furlongs\n  ways: -3\n  list: [a]\n");
        ConfigException e = assertThrows(ConfigException.class, () -> m.map("l1").positiveInt("ways"));
        assertEquals("a100.yaml: l1.ways: must not be negative, got -3", e.getMessage());
        e = assertThrows(ConfigException.class, () -> m.map("l1").string("missing"));
        assertEquals("a100.yaml: l1.missing: missing", e.getMessage());
        assertThrows(ConfigException.class, () -> m.map("l1").string("list"));
    }

    @Test
    void listElementsCarryIndexInPath() {
        ConfigMap m = load("caches:\n  - name: L1d\n  - nmae: L2\n");
        ConfigException e = assertThrows(ConfigException.class, () -> m.list("caches").get(1).allow("name", "size"));
        assertEquals("a100.yaml: caches[1].nmae: unknown key (allowed: name, size)", e.getMessage());
    }

    @Test
    void overlayMergesMapsAndReplacesScalars() {
        Map<String, Object> base = Map.of("gpu", Map.of("sms", "108", "dram", Map.of("bandwidth", "2039GB/s", "size", "80GiB")));
        Map<String, Object> over = Map.of("gpu", Map.of("dram", Map.of("bandwidth", "1555GB/s")));
        Map<String, Object> merged = Overlay.merge(base, over);
        assertEquals(Map.of("gpu", Map.of("sms", "108", "dram", Map.of("bandwidth", "1555GB/s", "size", "80GiB"))), merged);
    }

    @Test
    void versionIsRequiredAndChecked() {
        PresetResolver none = (p, from) -> { throw new ConfigException("no presets"); };
        assertThrows(ConfigException.class, () -> ConfigLoader.load(new ConfigSource("x.yaml", "name: a\n", null), none, 1));
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(new ConfigSource("x.yaml", "version: 2\n", null), none, 1));
        assertEquals("x.yaml: version: is 2, this program reads version 1", e.getMessage());
    }

    @Test
    void presetCycleIsStopped() {
        PresetResolver self = (p, from) -> new ConfigSource("loop.yaml", "version: 1\npreset: loop\n", null);
        assertThrows(ConfigException.class, () -> ConfigLoader.load(new ConfigSource("loop.yaml", "version: 1\npreset: loop\n", null), self, 1));
    }
}
