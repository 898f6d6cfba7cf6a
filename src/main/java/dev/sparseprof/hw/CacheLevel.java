package dev.sparseprof.hw;

import dev.sparseprof.util.Checks;

/**
 * One cache level as the hardware has it. {@code shared} says whether one instance serves every
 * core/SM (an L3, a GPU L2) or each core/SM has its own ({@code sizeBytes} is then per instance).
 * {@code sectorBytes} equals {@code lineBytes} for unsectored caches. {@code bandwidthBytesPerSecond}
 * is the whole level's bandwidth (all instances), 0 when the spec gives none (no roof is drawn for it).
 *
 * <p>Invariant (checked): sizes positive, line and sector powers of two with sector dividing line,
 * and {@code sizeBytes / (ways * lineBytes)} a whole number of sets.
 */
public record CacheLevel(String name, long sizeBytes, int ways, int lineBytes, int sectorBytes,
                         double latencyCycles, boolean shared, double bandwidthBytesPerSecond) {
    public CacheLevel {
        if (name == null || name.isBlank()) throw new SpecException("cache level without a name");
        if (sizeBytes <= 0) throw new SpecException(name + ": size must be positive, got " + sizeBytes + " bytes");
        if (ways <= 0) throw new SpecException(name + ": ways must be positive, got " + ways);
        if (!Checks.isPowerOfTwo(lineBytes)) throw new SpecException(name + ": line must be a power of two, got " + lineBytes + " B");
        if (!Checks.isPowerOfTwo(sectorBytes) || sectorBytes > lineBytes) {
            throw new SpecException(name + ": sector must be a power of two no larger than the line, got " + sectorBytes + " B");
        }
        if ((long) ways * lineBytes > sizeBytes || sizeBytes % ((long) ways * lineBytes) != 0) {
            throw new SpecException(name + ": " + sizeBytes + " B / (" + ways + " ways x " + lineBytes
                    + " B lines) is not a whole number of sets");
        }
        if (!(latencyCycles >= 0)) throw new SpecException(name + ": latency must not be negative");
        if (!(bandwidthBytesPerSecond >= 0)) throw new SpecException(name + ": bandwidth must not be negative");
    }

    public long sets() {
        return sizeBytes / ((long) ways * lineBytes);
    }

    public boolean hasBandwidth() {
        return bandwidthBytesPerSecond > 0;
    }
}
