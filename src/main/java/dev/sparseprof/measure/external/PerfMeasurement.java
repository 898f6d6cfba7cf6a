package dev.sparseprof.measure.external;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The hardware counters of one run that the tools use, each empty when the machine did not count it
 * (a VM without a virtual PMU leaves all but {@code taskClockSeconds} empty).
 *
 * @param cycles             core cycles
 * @param instructions       retired instructions
 * @param l1dLoadMisses      {@code L1-dcache-load-misses}
 * @param llcLoadMisses      {@code LLC-load-misses} (or {@code LLC-misses})
 * @param cacheMisses        {@code cache-misses} (perf's generic last-level event)
 * @param taskClockSeconds   CPU time of the task (a software clock: present even on VMs)
 */
public record PerfMeasurement(OptionalDouble cycles, OptionalDouble instructions, OptionalDouble l1dLoadMisses,
                              OptionalDouble llcLoadMisses, OptionalDouble cacheMisses, OptionalDouble taskClockSeconds) {
    public PerfMeasurement {
        Objects.requireNonNull(cycles);
        Objects.requireNonNull(instructions);
        Objects.requireNonNull(l1dLoadMisses);
        Objects.requireNonNull(llcLoadMisses);
        Objects.requireNonNull(cacheMisses);
        Objects.requireNonNull(taskClockSeconds);
    }

    /** Instructions per cycle, empty unless both were counted and cycles is positive. */
    public OptionalDouble instructionsPerCycle() {
        if (cycles.isEmpty() || instructions.isEmpty() || cycles.getAsDouble() <= 0) return OptionalDouble.empty();
        return OptionalDouble.of(instructions.getAsDouble() / cycles.getAsDouble());
    }
}
