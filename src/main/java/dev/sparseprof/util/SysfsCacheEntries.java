package dev.sparseprof.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one reader of Linux's cache entries ({@code /sys/devices/system/cpu/cpu0/cache/index*}:
 * {@code level}, {@code type}, {@code size}, {@code ways_of_associativity},
 * {@code coherency_line_size}), for the kernels' blocking ({@code kernel.CoreCaches}) and the
 * probe's geometry ({@code measure.probe.CacheSizes}). An entry whose level, type or size cannot be
 * read is left out; a missing or garbled way count or line size reads as 0 (unknown). A missing
 * directory gives no entries: each caller falls back to its own preset.
 */
public final class SysfsCacheEntries {
    /** Where Linux lists cpu0's caches. */
    public static final Path CPU0 = Path.of("/sys/devices/system/cpu/cpu0/cache");
    /** Entries looked at: {@code index0} .. {@code index7}. */
    private static final int MAX_ENTRIES = 8;

    /**
     * One cache as sysfs lists it.
     *
     * @param level     1, 2, 3, ...
     * @param type      {@code data}, {@code instruction} or {@code unified} (lower case)
     * @param sizeBytes the size of one instance
     * @param ways      associativity, 0 when not given
     * @param lineBytes line size, 0 when not given
     */
    public record Entry(int level, String type, long sizeBytes, int ways, int lineBytes) {
        public Entry {
            if (level < 1 || sizeBytes <= 0 || ways < 0 || lineBytes < 0) throw new IllegalArgumentException("bad cache entry");
        }

        /** Holds data: {@code data} or {@code unified}. */
        public boolean holdsData() { return !type.equals("instruction"); }
    }

    private SysfsCacheEntries() {}

    /** The readable entries of {@code cacheDir}, in index order. */
    public static List<Entry> read(Path cacheDir) {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < MAX_ENTRIES; i++) {
            Path dir = cacheDir.resolve("index" + i);
            if (!Files.isDirectory(dir)) continue;
            try {
                int level = Integer.parseInt(Files.readString(dir.resolve("level")).strip());
                String type = Files.readString(dir.resolve("type")).strip().toLowerCase(Locale.ROOT);
                long size = sizeBytes(Files.readString(dir.resolve("size")));
                if (level < 1 || size <= 0) continue;
                out.add(new Entry(level, type, size, optionalInt(dir.resolve("ways_of_associativity")),
                        optionalInt(dir.resolve("coherency_line_size"))));
            } catch (IOException | RuntimeException e) {
                // an unreadable entry is left out; the caller's fallback covers its level
            }
        }
        return out;
    }

    /** sysfs sizes: {@code 48K}, {@code 2048K}, {@code 32M}. */
    public static long sizeBytes(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        long unit = t.endsWith("K") ? 1L << 10 : t.endsWith("M") ? 1L << 20 : t.endsWith("G") ? 1L << 30 : 1;
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        return Math.multiplyExact(Long.parseLong(digits), unit);
    }

    private static int optionalInt(Path file) {
        try {
            if (!Files.isRegularFile(file)) return 0;
            int v = Integer.parseInt(Files.readString(file).strip());
            return Math.max(v, 0);
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
