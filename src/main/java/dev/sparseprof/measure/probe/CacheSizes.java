package dev.sparseprof.measure.probe;

import dev.sparseprof.util.SysfsCacheEntries;
import java.nio.file.Path;
import java.util.List;

/**
 * The data-cache geometry of this machine's first CPU, from Linux sysfs ({@link SysfsCacheEntries}
 * reads {@code /sys/devices/system/cpu/cpu0/cache/index*}: {@code level}, {@code type}, {@code size},
 * {@code ways_of_associativity}, {@code coherency_line_size}); a level sysfs does not report takes
 * {@link #FALLBACK}'s values ({@code fromSysfs} says whether all came from sysfs). Used to size the
 * probe's working sets and, in the probe's overlay, the cache geometry.
 *
 * @param l1dBytes  per-core L1 data cache
 * @param l2Bytes   per-core (or per-cluster) L2
 * @param l3Bytes   the last-level cache as one instance
 * @param ways      associativity of L1d, L2, L3 (index 0..2)
 * @param lineBytes the line size (sysfs reports one per level; L1d's is kept)
 * @param fromSysfs true when every level came from sysfs
 */
public record CacheSizes(long l1dBytes, long l2Bytes, long l3Bytes, List<Integer> ways, int lineBytes, boolean fromSysfs) {
    /** Sizes assumed when sysfs says nothing (a typical server core). */
    public static final CacheSizes FALLBACK = new CacheSizes(32L << 10, 1L << 20, 32L << 20, List.of(8, 16, 16), 64, false);

    public CacheSizes {
        if (l1dBytes <= 0 || l2Bytes <= 0 || l3Bytes <= 0) throw new IllegalArgumentException("cache sizes must be positive");
        ways = List.copyOf(ways);
        if (ways.size() != 3) throw new IllegalArgumentException("ways for L1d, L2, L3");
        if (lineBytes <= 0) throw new IllegalArgumentException("line size must be positive");
    }

    /** Sizes only (tests): fallback ways and line. */
    public static CacheSizes ofSizes(long l1dBytes, long l2Bytes, long l3Bytes) {
        return new CacheSizes(l1dBytes, l2Bytes, l3Bytes, FALLBACK.ways, FALLBACK.lineBytes, false);
    }

    public long sizeBytes(int level) {
        return switch (level) {
            case 1 -> l1dBytes;
            case 2 -> l2Bytes;
            case 3 -> l3Bytes;
            default -> throw new IllegalArgumentException("level " + level);
        };
    }

    /** Where Linux lists cpu0's caches. */
    public static final Path SYSFS = SysfsCacheEntries.CPU0;

    /** Reads sysfs; falls back level by level to {@link #FALLBACK}. */
    public static CacheSizes ofThisMachine() {
        return read(SYSFS);
    }

    public static CacheSizes read(Path cacheDir) {
        return read(cacheDir, FALLBACK);
    }

    /** Reads sysfs; a level it does not report takes {@code fallback}'s size and ways (the line too). */
    public static CacheSizes read(Path cacheDir, CacheSizes fallback) {
        long[] bytes = new long[4];
        int[] ways = new int[4];
        int line = 0;
        for (SysfsCacheEntries.Entry e : SysfsCacheEntries.read(cacheDir)) {
            if (e.level() > 3 || !e.holdsData()) continue;
            bytes[e.level()] = e.sizeBytes();
            ways[e.level()] = e.ways();
            if (e.level() == 1) line = e.lineBytes();
        }
        boolean all = true;
        Integer[] w = new Integer[3];
        long[] size = new long[3];
        for (int level = 1; level <= 3; level++) {
            boolean ok = bytes[level] > 0 && ways[level] > 0;
            all &= ok;
            size[level - 1] = ok ? bytes[level] : fallback.sizeBytes(level);
            w[level - 1] = ok ? ways[level] : fallback.ways.get(level - 1);
        }
        all &= line > 0;
        return new CacheSizes(size[0], size[1], size[2], List.of(w), line > 0 ? line : fallback.lineBytes, all);
    }
}
