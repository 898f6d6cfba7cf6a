package dev.sparseprof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the package DAG of docs/architecture.md true by reading every main source file's imports (and fully
 * qualified references): a package may use only packages of a strictly lower layer.
 */
class LayeringTest {
    static final Map<String, Integer> LAYER = Map.ofEntries(
            Map.entry("util", 0), Map.entry("config", 0),
            Map.entry("hw", 1), Map.entry("model", 1), Map.entry("sparse", 1), Map.entry("trace", 1),
            Map.entry("kernel", 2), Map.entry("memsim", 2),
            Map.entry("perfmodel", 3), Map.entry("measure", 3),
            Map.entry("calibrate", 4),
            Map.entry("report", 5),
            Map.entry("cli", 6));

    private static final Pattern REFERENCE = Pattern.compile("\\bdev\\.sparseprof\\.([a-z0-9]+)\\.");

    @Test
    void everyPackageImportsOnlyLowerLayers() throws IOException {
        Path root = Path.of("src/main/java/dev/sparseprof");
        List<String> violations = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        assertTrue(files.size() > 10, "found the sources");
        for (Path file : files) {
            String own = root.relativize(file).getName(0).toString();
            Integer ownLayer = LAYER.get(own);
            if (ownLayer == null) {
                violations.add(file + ": package '" + own + "' has no layer in docs/architecture.md's table");
                continue;
            }
            int lineNo = 0;
            for (String line : Files.readAllLines(file)) {
                lineNo++;
                String code = line.strip();
                if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) continue;
                Matcher m = REFERENCE.matcher(code);
                while (m.find()) {
                    String used = m.group(1);
                    if (used.equals(own)) continue;
                    Integer usedLayer = LAYER.get(used);
                    if (usedLayer == null || usedLayer >= ownLayer) {
                        violations.add(file + ":" + lineNo + ": " + own + " (layer " + ownLayer + ") uses "
                                + used + " (layer " + usedLayer + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }
}
