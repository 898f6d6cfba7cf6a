package dev.sparseprof.measure.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The data-cache sizes of this machine's first CPU, from Linux sysfs
 * ({@code /sys/devices/system/cpu/cpu0/cache/index*}: {@code level}, {@code type}, {@code size}); 0 for
 * a level the machine does not report. Used only to size the probe's working sets.
 *
 * @param l1dBytes per-core L1 data cache
 * @param l2Bytes  per-core (or per-cluster) L2
 * @param l3Bytes  the last-level cache as one instance
 */
public record CacheSizes(long l1dBytes, long l2Bytes, long l3Bytes) {
    /** Sizes assumed when sysfs says nothing (a typical server core). */
    public static final CacheSizes FALLBACK = new CacheSizes(32L << 10, 1L << 20, 32L << 20);

    public CacheSizes {
        if (l1dBytes < 0 || l2Bytes < 0 || l3Bytes < 0) throw new IllegalArgumentException("cache sizes must not be negative");
    }

    /** Reads sysfs; falls back level by level to {@link #FALLBACK}. */
    public static CacheSizes ofThisMachine() {
        return read(Path.of("/sys/devices/system/cpu/cpu0/cache"));
    }

    static CacheSizes read(Path cacheDir) {
        long[] bytes = new long[4];
        for (int i = 0; i < 8; i++) {
            Path dir = cacheDir.resolve("index" + i);
            if (!Files.isDirectory(dir)) continue;
            try {
                int level = Integer.parseInt(Files.readString(dir.resolve("level")).strip());
                String type = Files.readString(dir.resolve("type")).strip().toLowerCase(Locale.ROOT);
                if (level < 1 || level > 3 || type.equals("instruction")) continue;
                bytes[level] = parseSize(Files.readString(dir.resolve("size")).strip());
            } catch (IOException | NumberFormatException e) {
                // an unreadable entry is treated like a missing one; the fallback covers it
            }
        }
        return new CacheSizes(bytes[1] > 0 ? bytes[1] : FALLBACK.l1dBytes, bytes[2] > 0 ? bytes[2] : FALLBACK.l2Bytes,
                bytes[3] > 0 ? bytes[3] : FALLBACK.l3Bytes);
    }

    /** sysfs sizes: {@code 48K}, {@code 2048K}, {@code 32M}. */
    static long parseSize(String s) {
        char unit = Character.toUpperCase(s.charAt(s.length() - 1));
        long scale = switch (unit) {
            case 'K' -> 1L << 10;
            case 'M' -> 1L << 20;
            case 'G' -> 1L << 30;
            default -> 1L;
        };
        String digits = Character.isDigit(unit) ? s : s.substring(0, s.length() - 1);
        return Long.parseLong(digits) * scale;
    }
}
