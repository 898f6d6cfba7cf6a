package dev.sparseprof.measure.external;

/** What {@code perf stat} said about one event: a value, or why there is none. */
public enum CounterStatus {
    COUNTED,
    /** {@code <not supported>}: the machine (often a VM without a virtual PMU) has no such counter. */
    NOT_SUPPORTED,
    /** {@code <not counted>}: the counter exists but never ran (multiplexing, or the workload ended first). */
    NOT_COUNTED
}
