package dev.sparseprof.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SafeYamlTest {
    private static Map<String, Object> parse(String yaml) {
        return SafeYaml.parse(new ConfigSource("t.yaml", yaml, null));
    }

    @Test
    void scalarsStayStrings() {
        Map<String, Object> m = parse("a: 1\nb: 1.41GHz\nc: [x, y]\nd: {e: yes}\n");
        assertEquals("1", m.get("a"));
        assertEquals("1.41GHz", m.get("b"));
        assertEquals(List.of("x", "y"), m.get("c"));
        assertEquals(Map.of("e", "yes"), m.get("d"));
    }

    @Test
    void aliasBombIsRefused() {
        // The "billion laughs": 9 levels of 9 aliases, well under 1 KB of text.
        StringBuilder sb = new StringBuilder("a0: &a0 [lol]\n");
        for (int i = 1; i <= 9; i++) {
            sb.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) sb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            sb.append("]\n");
        }
        assertTrue(sb.length() < 1024);
        ConfigException e = assertThrows(ConfigException.class, () -> parse(sb.toString()));
        assertTrue(e.getMessage().startsWith("t.yaml: "), e.getMessage());
    }

    @Test
    void hugeDocumentIsRefusedBeforeParsing() {
        String big = "a: " + "x".repeat(ConfigSource.MAX_CHARS + 1) + "\n";
        assertThrows(ConfigException.class, () -> parse(big));
    }

    @Test
    void duplicateKeysAndCustomTagsAreErrors() {
        assertThrows(ConfigException.class, () -> parse("a: 1\na: 2\n"));
        assertThrows(ConfigException.class, () -> parse("a: !!java.lang.Runtime x\n"));
    }

    @Test
    void syntaxErrorNamesTheLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> parse("a: 1\nb: [unclosed\n"));
        assertTrue(e.getMessage().contains("line"), e.getMessage());
    }

    @Test
    void topLevelMustBeAMapping() {
        assertThrows(ConfigException.class, () -> parse("- a\n- b\n"));
        assertEquals(Map.of(), parse(""));
    }
}
