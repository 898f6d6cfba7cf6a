package dev.sparseprof.measure.external;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The counters of one {@code perf stat -x,} run, as read by {@link PerfStatReader}. Lookups go by the
 * event's base name, so {@code cycles:u} and the per-PMU lines of a hybrid CPU
 * ({@code cpu_core/cycles/}, {@code cpu_atom/cycles/}) answer {@code "cycles"} (counted values summed).
 *
 * @param source   the file it came from, for messages
 * @param counters the lines in file order
 */
public record PerfStatReport(String source, List<PerfCounter> counters) {
    /** The phrase the CLI prints when a VM exposes no PMU (every hardware event {@code <not supported>}). */
    public static final String UNSUPPORTED = "hardware counters not supported on this machine";

    public PerfStatReport {
        counters = List.copyOf(counters);
        if (counters.isEmpty()) throw new ExternalFormatException(source, "no counter lines (is it perf stat -x, output?)");
    }

    /** The summed count of every counted line with this base name; empty when none was counted. */
    public OptionalDouble value(String baseName) {
        String want = baseName.toLowerCase(Locale.ROOT);
        double sum = 0;
        boolean any = false;
        for (PerfCounter c : counters) {
            if (c.status() == CounterStatus.COUNTED && c.baseName().equals(want)) {
                sum += c.value();
                any = true;
            }
        }
        return any ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** True when at least one hardware event was counted; false when all of them came back unsupported or uncounted. */
    public boolean hardwareCountersSupported() {
        for (PerfCounter c : counters) {
            if (c.isHardwareEvent() && c.status() == CounterStatus.COUNTED) return true;
        }
        return false;
    }

    /** The hardware events perf could not count, in file order. */
    public List<String> uncountedHardwareEvents() {
        List<String> out = new ArrayList<>();
        for (PerfCounter c : counters) {
            if (c.isHardwareEvent() && c.status() != CounterStatus.COUNTED) out.add(c.event());
        }
        return out;
    }

    /** One line for the user: which events were missing and why, or null when every hardware event was counted. */
    public String note() {
        List<String> missing = uncountedHardwareEvents();
        if (missing.isEmpty()) return null;
        if (!hardwareCountersSupported()) {
            return source + ": " + UNSUPPORTED + " (" + String.join(", ", missing) + ": not supported or not counted)";
        }
        return source + ": not counted: " + String.join(", ", missing);
    }

    /** The counters the calibration and the reports use, each empty when the machine did not count it. */
    public PerfMeasurement measurement() {
        OptionalDouble taskClock = OptionalDouble.empty();
        for (PerfCounter c : counters) {
            if (c.baseName().equals("task-clock") && c.status() == CounterStatus.COUNTED) {
                double scale = switch (c.unit()) {
                    case "msec" -> 1e-3;
                    case "usec" -> 1e-6;
                    case "nsec", "ns" -> 1e-9;
                    default -> 1e-3;
                };
                taskClock = OptionalDouble.of(c.value() * scale);
            }
        }
        OptionalDouble llc = value("LLC-load-misses");
        if (llc.isEmpty()) llc = value("LLC-misses");
        return new PerfMeasurement(value("cycles"), value("instructions"), value("L1-dcache-load-misses"),
                llc, value("cache-misses"), taskClock);
    }
}
