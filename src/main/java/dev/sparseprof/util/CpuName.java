package dev.sparseprof.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The one reader of this CPU's name, for the measurements' machine identity and the probe's spec.
 * A VM's {@code /proc/cpuinfo} often gives only a family name ("AMD EPYC" on a Zen 3, a Zen 4 and a
 * Zen 5 alike, "Intel(R) Xeon(R) Processor" on several generations), so the name is the {@code model
 * name} line followed by the x86 {@code cpu family} and {@code model} numbers where the file has
 * them: {@code "AMD EPYC (family 25 model 17)"}. Without {@code /proc/cpuinfo} it is the OS
 * architecture.
 */
public final class CpuName {
    private CpuName() {}

    /** This machine's name. */
    public static String ofThisMachine() {
        try {
            return fromCpuinfo(Files.readAllLines(Path.of("/proc/cpuinfo")), System.getProperty("os.arch"));
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.arch");
        }
    }

    /** The name the first processor's lines of a {@code /proc/cpuinfo} give, or {@code fallback}. */
    public static String fromCpuinfo(List<String> lines, String fallback) {
        String name = null, family = null, model = null;
        for (String line : lines) {
            if (line.isBlank() && name != null) break; // the end of the first processor's block
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String key = line.substring(0, colon).strip(), value = line.substring(colon + 1).strip();
            switch (key) {
                case "model name" -> name = value;
                case "cpu family" -> family = value;
                case "model" -> model = value;
                default -> { }
            }
        }
        if (name == null || name.isEmpty()) return fallback;
        return family != null && model != null && family.matches("\\d+") && model.matches("\\d+")
                ? name + " (family " + family + " model " + model + ")" : name;
    }
}
