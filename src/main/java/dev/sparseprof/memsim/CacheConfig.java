package dev.sparseprof.memsim;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;

/**
 * One cache level's geometry and policies. Sizes need not be powers of two (Zen 5's L1d is
 * 48 KiB 12-way, 64 sets) but must hold a whole number of sets; the line size must be a power of
 * two (at least 4 bytes); {@code ways == sizeBytes / lineBytes} is fully associative.
 * {@code sectorsPerLine} splits a line into sectors that are fetched and tracked apart (NVIDIA L1/L2:
 * 128-byte lines of 4 x 32-byte sectors). Faults name the level.
 */
public record CacheConfig(String name, long sizeBytes, int lineBytes, int ways, String policy,
                          WritePolicy writePolicy, int sectorsPerLine, Inclusion inclusion,
                          String prefetcher, boolean classifyMisses, long seed) {
    public CacheConfig {
        if (name == null || name.isBlank()) throw new SparseprofException("cache level needs a name");
        if (sizeBytes <= 0) throw new SparseprofException(name + ": size must be positive, got " + sizeBytes);
        if (lineBytes < 4 || !Checks.isPowerOfTwo(lineBytes)) {
            throw new SparseprofException(name + ": line size " + lineBytes + " B is not a power of two of at least 4");
        }
        if (ways < 1) throw new SparseprofException(name + ": associativity must be at least 1 way, got " + ways);
        if (sizeBytes % ((long) lineBytes * ways) != 0) {
            throw new SparseprofException(name + ": size " + Units.formatBytes(sizeBytes) + " is not a multiple of line "
                    + lineBytes + " B x " + ways + " ways");
        }
        if (sizeBytes / lineBytes > Integer.MAX_VALUE / 4) throw new SparseprofException(name + ": too many lines");
        if (sectorsPerLine < 1 || sectorsPerLine > 64 || !Checks.isPowerOfTwo(sectorsPerLine) || sectorsPerLine > lineBytes) {
            throw new SparseprofException(name + ": sectors per line must be a power of two in [1, 64], got " + sectorsPerLine);
        }
        if (!ReplacementPolicies.exists(policy)) {
            throw new SparseprofException(name + ": unknown replacement policy '" + policy + "' (known: "
                    + String.join(", ", ReplacementPolicies.names()) + ")");
        }
        if (!Prefetchers.exists(prefetcher)) {
            throw new SparseprofException(name + ": unknown prefetcher '" + prefetcher + "' (known: "
                    + String.join(", ", Prefetchers.names()) + ")");
        }
        if (writePolicy == null || inclusion == null) throw new SparseprofException(name + ": write policy and inclusion are required");
    }

    /** An LRU, write-back write-allocate, unsectored, non-inclusive level without prefetch. */
    public static CacheConfig of(String name, long sizeBytes, int lineBytes, int ways) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, "lru", WritePolicy.WB_WA, 1, Inclusion.NON_INCLUSIVE, "none", false, 1);
    }

    /** Fully associative: one set holding every line. */
    public static CacheConfig fullyAssociative(String name, long sizeBytes, int lineBytes) {
        Checks.positive(lineBytes, name + ": line size");
        return of(name, sizeBytes, lineBytes, Checks.toIntExact(sizeBytes / lineBytes, name + ": lines"));
    }

    public int sets() {
        return (int) (sizeBytes / ((long) lineBytes * ways));
    }

    public int lines() {
        return (int) (sizeBytes / lineBytes);
    }

    public CacheConfig withPolicy(String p) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, p, writePolicy, sectorsPerLine, inclusion, prefetcher, classifyMisses, seed);
    }

    public CacheConfig withWritePolicy(WritePolicy w) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, policy, w, sectorsPerLine, inclusion, prefetcher, classifyMisses, seed);
    }

    public CacheConfig withSectors(int s) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, policy, writePolicy, s, inclusion, prefetcher, classifyMisses, seed);
    }

    public CacheConfig withInclusion(Inclusion i) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, policy, writePolicy, sectorsPerLine, i, prefetcher, classifyMisses, seed);
    }

    public CacheConfig withPrefetcher(String p) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, policy, writePolicy, sectorsPerLine, inclusion, p, classifyMisses, seed);
    }

    public CacheConfig withClassifyMisses(boolean c) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, policy, writePolicy, sectorsPerLine, inclusion, prefetcher, c, seed);
    }

    public CacheConfig withName(String n) {
        return new CacheConfig(n, sizeBytes, lineBytes, ways, policy, writePolicy, sectorsPerLine, inclusion, prefetcher, classifyMisses, seed);
    }

    public CacheConfig withSeed(long s) {
        return new CacheConfig(name, sizeBytes, lineBytes, ways, policy, writePolicy, sectorsPerLine, inclusion, prefetcher, classifyMisses, s);
    }
}
