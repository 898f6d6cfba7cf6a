package dev.sparseprof.perfmodel;

import java.util.List;
import java.util.function.Supplier;

/**
 * Bytes arriving at each memory level of a machine for one kernel, innermost first with DRAM last
 * ({@code levels.size() == bytes.length}), with the miss rate of each cache level (bytes it passes
 * on / bytes it receives; DRAM's entry is 0). {@code source} says how the bytes were obtained
 * ({@code analytical} or {@code simulated, N of M rows sampled}); {@code samplingError} is the
 * relative standard error of a sampled estimate (0 when nothing was sampled); {@code pendingCheck}
 * makes, on its first read, the memsim replay of a sample held against these bytes where the
 * analytical model is the default ({@link #check}; null where none is made).
 */
public record Traffic(List<String> levels, double[] bytes, double[] missRates, String source, double samplingError,
                      Supplier<TrafficCheck> pendingCheck) {
    /** Without a check. */
    public Traffic(List<String> levels, double[] bytes, double[] missRates, String source, double samplingError) {
        this(levels, bytes, missRates, source, samplingError, null);
    }

    public Traffic {
        levels = List.copyOf(levels);
        bytes = bytes.clone();
        missRates = missRates.clone();
        if (bytes.length != levels.size() || missRates.length != levels.size()) throw new IllegalArgumentException("one entry per level");
    }

    /** Whether the bytes came from a cache simulation (false for the analytical model and its fallbacks). */
    public boolean simulated() {
        return !source.startsWith("analytical");
    }

    /** The same bytes with a check attached (made when first read) and another source label. */
    public Traffic withCheck(String label, Supplier<TrafficCheck> c) {
        return new Traffic(levels, bytes, missRates, label, samplingError, c);
    }

    /** The memsim check of these bytes, made now if it was not yet; null where none is made. */
    public TrafficCheck check() {
        return pendingCheck == null ? null : pendingCheck.get();
    }

    public double dramBytes() {
        return bytes[bytes.length - 1];
    }

    public double bytesAt(int level) {
        return bytes[level];
    }

    public double missRate(int level) {
        return missRates[level];
    }

    @Override
    public double[] bytes() {
        return bytes.clone();
    }

    @Override
    public double[] missRates() {
        return missRates.clone();
    }
}
