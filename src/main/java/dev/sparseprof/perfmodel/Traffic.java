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
 * analytical model is the default ({@link #check}; null where none is made). {@code gatherShares}:
 * the share of each level's bytes that are B's rows gathered one row at a time
 * ({@link DataStream#rowGather}), which a CPU core moves at its probed gather rate, not its
 * streaming one (all 0 where unknown).
 */
public record Traffic(List<String> levels, double[] bytes, double[] missRates, String source, double samplingError,
                      double[] gatherShares, Supplier<TrafficCheck> pendingCheck) {
    /** Without a check, no gathered share known. */
    public Traffic(List<String> levels, double[] bytes, double[] missRates, String source, double samplingError) {
        this(levels, bytes, missRates, source, samplingError, new double[bytes.length], null);
    }

    public Traffic {
        levels = List.copyOf(levels);
        bytes = bytes.clone();
        missRates = missRates.clone();
        gatherShares = gatherShares.clone();
        if (bytes.length != levels.size() || missRates.length != levels.size() || gatherShares.length != levels.size()) {
            throw new IllegalArgumentException("one entry per level");
        }
    }

    /** Whether the bytes came from a cache simulation (false for the analytical model and its fallbacks). */
    public boolean simulated() {
        return !source.startsWith("analytical");
    }

    /** The same bytes with a check attached (made when first read) and another source label. */
    public Traffic withCheck(String label, Supplier<TrafficCheck> c) {
        return new Traffic(levels, bytes, missRates, label, samplingError, gatherShares, c);
    }

    /** Every level's bytes times {@code factor} (an expectation over runs that may not happen), the rest the same. */
    public Traffic scaled(double factor) {
        double[] b = bytes.clone();
        for (int i = 0; i < b.length; i++) b[i] *= factor;
        return new Traffic(levels, b, missRates, source, samplingError, gatherShares, pendingCheck);
    }

    /** The same traffic with the gathered shares of another estimate of it (same levels). */
    public Traffic withGatherShares(double[] shares) {
        return new Traffic(levels, bytes, missRates, source, samplingError, shares, pendingCheck);
    }

    /** The bytes at a level that are gathered B rows. */
    public double gatherBytesAt(int level) {
        return bytes[level] * gatherShares[level];
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
    public double[] gatherShares() {
        return gatherShares.clone();
    }

    @Override
    public double[] missRates() {
        return missRates.clone();
    }
}
