package dev.sparseprof.measure.external;

import dev.sparseprof.util.SparseprofException;
import java.util.Locale;

/**
 * One line of {@code perf stat -x,} output: {@code value,unit,event,run-time,percentage,...}.
 *
 * @param event           the event as perf printed it ({@code cycles:u}, {@code cpu_core/cycles/})
 * @param value           the count, NaN unless {@code status} is {@link CounterStatus#COUNTED}
 * @param unit            perf's unit ({@code msec} for task-clock; empty for plain counts)
 * @param status          counted, or why not
 * @param runTimeNanos    how long the counter ran, -1 when perf left the field empty
 * @param enabledPercent  the share of the run the counter was enabled (multiplexing), NaN when absent
 */
public record PerfCounter(String event, double value, String unit, CounterStatus status, long runTimeNanos,
                          double enabledPercent) {
    public PerfCounter {
        if (event == null || event.isBlank()) throw new SparseprofException("perf counter: empty event name");
        if (status == CounterStatus.COUNTED && !(value >= 0 && Double.isFinite(value))) {
            throw new SparseprofException("perf counter " + event + ": counted value must be finite and >= 0, got " + value);
        }
        if (status != CounterStatus.COUNTED && !Double.isNaN(value)) {
            throw new SparseprofException("perf counter " + event + ": a " + status + " counter has no value");
        }
        if (unit == null) unit = "";
    }

    /** The event without PMU prefix and modifiers: {@code cpu_core/cycles/} and {@code cycles:u} are {@code cycles}. */
    public String baseName() {
        String e = event;
        int slash = e.indexOf('/');
        if (slash >= 0 && e.endsWith("/") && e.length() > slash + 1) e = e.substring(slash + 1, e.length() - 1);
        int colon = e.indexOf(':');
        if (colon > 0) e = e.substring(0, colon);
        return e.toLowerCase(Locale.ROOT);
    }

    /** True for the events a PMU counts (cycles, instructions, cache and branch events), false for software clocks. */
    public boolean isHardwareEvent() {
        String b = baseName();
        return !(b.equals("task-clock") || b.equals("cpu-clock") || b.equals("context-switches") || b.equals("cs")
                || b.equals("cpu-migrations") || b.equals("migrations") || b.equals("page-faults") || b.equals("faults")
                || b.equals("minor-faults") || b.equals("major-faults") || b.equals("duration_time")
                || b.equals("user_time") || b.equals("system_time"));
    }
}
