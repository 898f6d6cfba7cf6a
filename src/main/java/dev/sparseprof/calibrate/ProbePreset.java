package dev.sparseprof.calibrate;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CPU preset {@code calibrate --probe} overlays when no {@code --preset} is given: the bundled
 * preset of this CPU's kind, from the name {@link dev.sparseprof.util.CpuName} reads ({@code
 * "AMD EPYC (family 25 model 17)"}). The probe replaces the preset's sizes (sysfs), bandwidths, FMA
 * peak and in-core rates; what stays the preset's is what it cannot measure: the FMA ports a core
 * has at its widest vector (the probe's effective clock divides by them), the cache latencies and
 * the misses a core keeps in flight, and the cache sizes where a VM hides them. A preset of the same
 * microarchitecture gets those right; one of another vendor gets them wrong by up to 2x.
 *
 * <ul>
 * <li>AMD family 26 (Zen 5): {@code epyc-zen5-2c}.</li>
 * <li>AMD family 25, Zen 4 (0x19's models 0x10-0x1f, 0x60-0x7f and 0xa0-0xaf): {@code epyc-zen4-2c}.</li>
 * <li>AMD family 25, Zen 3 (its other models): {@code epyc-zen5-2c}, said so. No Zen 3 preset is
 *     bundled, and what the probe keeps of a preset decides the nearest: a Zen 3 has two 256-bit FMA
 *     pipes and AVX2 only, so at its 256-bit width it issues two FMAs a clock, as the Zen 5 preset's
 *     {@code fmaPorts: 2} says; the Zen 4 preset's one port is its 512-bit FMA, split over the same
 *     two pipes, and would put a Zen 3's effective clock at twice its real one.</li>
 * <li>Intel: {@code xeon-spr}.</li>
 * <li>Any other CPU, or a name without its family: {@code epyc-zen5-2c}, said so.</li>
 * </ul>
 */
public final class ProbePreset {
    /** The preset for a CPU the rules do not place. */
    public static final String FALLBACK = "epyc-zen5-2c";

    private static final Pattern FAMILY_MODEL = Pattern.compile("\\(family (\\d+) model (\\d+)\\)");

    /** A preset and why it was chosen, for the command's one line. */
    public record Choice(String preset, String why) {}

    private ProbePreset() {}

    /** The preset for the CPU named {@code cpuName} ({@link dev.sparseprof.util.CpuName#ofThisMachine()}). */
    public static Choice forCpu(String cpuName) {
        String name = cpuName == null ? "" : cpuName;
        String lower = name.toLowerCase(Locale.ROOT);
        Matcher m = FAMILY_MODEL.matcher(name);
        Integer family = null, model = null;
        if (m.find()) {
            family = Integer.parseInt(m.group(1));
            model = Integer.parseInt(m.group(2));
        }
        if (lower.contains("intel")) return new Choice("xeon-spr", "an Intel CPU (" + name + ")");
        boolean amd = lower.contains("amd") || lower.contains("epyc") || lower.contains("ryzen");
        if (amd && family != null) {
            if (family == 26) return new Choice("epyc-zen5-2c", "AMD family 26, Zen 5 (" + name + ")");
            if (family == 25) {
                boolean zen4 = (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) || (model >= 0xa0 && model <= 0xaf);
                return zen4 ? new Choice("epyc-zen4-2c", "AMD family 25 model " + model + ", Zen 4 (" + name + ")")
                        : new Choice("epyc-zen5-2c", "AMD family 25 model " + model + ", Zen 3: no Zen 3 preset; the nearest is Zen 5's,"
                                + " whose two FMA ports a Zen 3 has at its 256-bit width (" + name + ")");
            }
        }
        return new Choice(FALLBACK, "no bundled preset for " + (name.isEmpty() ? "this CPU" : name) + ", so " + FALLBACK);
    }
}
