package dev.sparseprof.kernel;

import dev.sparseprof.util.SysfsCacheEntries;
import java.nio.file.Path;

/**
 * The per-core L1 data and L2 sizes that the kernels size their blocks by, from Linux sysfs
 * ({@link SysfsCacheEntries}, the one reader of the raw entries);
 * a level sysfs does not give takes {@link #FALLBACK}'s size and {@code fromSysfs} is false.
 * (The probe's {@code CacheSizes}, one layer up, reads the whole geometry for the model.)
 */
public record CoreCaches(long l1dBytes, long l2Bytes, boolean fromSysfs) {
    /** Assumed when sysfs says nothing: 32 KiB L1d, 1 MiB L2 (a Zen 3 or Skylake-SP core). */
    public static final CoreCaches FALLBACK = new CoreCaches(32L << 10, 1L << 20, false);

    public CoreCaches {
        if (l1dBytes <= 0 || l2Bytes <= 0) throw new IllegalArgumentException("cache sizes must be positive");
    }

    /** This machine's, read once. */
    public static CoreCaches ofThisMachine() {
        return read(SysfsCacheEntries.CPU0);
    }

    static CoreCaches read(Path cacheDir) {
        long l1 = 0;
        long l2 = 0;
        for (SysfsCacheEntries.Entry e : SysfsCacheEntries.read(cacheDir)) {
            if (e.level() == 1 && e.type().equals("data")) l1 = e.sizeBytes();
            else if (e.level() == 2 && e.holdsData()) l2 = e.sizeBytes();
        }
        boolean complete = l1 > 0 && l2 > 0;
        return new CoreCaches(l1 > 0 ? l1 : FALLBACK.l1dBytes, l2 > 0 ? l2 : FALLBACK.l2Bytes, complete);
    }
}
