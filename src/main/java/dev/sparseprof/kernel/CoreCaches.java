package dev.sparseprof.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The per-core L1 data and L2 sizes that the kernels size their blocks by, from Linux sysfs
 * ({@code /sys/devices/system/cpu/cpu0/cache/index*}: {@code level}, {@code type}, {@code size});
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
        return read(Path.of("/sys/devices/system/cpu/cpu0/cache"));
    }

    static CoreCaches read(Path cacheDir) {
        long l1 = 0;
        long l2 = 0;
        for (int i = 0; i < 8; i++) {
            Path dir = cacheDir.resolve("index" + i);
            try {
                if (!Files.isDirectory(dir)) continue;
                String type = Files.readString(dir.resolve("type")).trim();
                int level = Integer.parseInt(Files.readString(dir.resolve("level")).trim());
                long size = sizeBytes(Files.readString(dir.resolve("size")));
                if (level == 1 && type.equals("Data")) l1 = size;
                else if (level == 2 && !type.equals("Instruction")) l2 = size;
            } catch (IOException | RuntimeException e) {
                // an unreadable level keeps the fallback size
            }
        }
        boolean complete = l1 > 0 && l2 > 0;
        return new CoreCaches(l1 > 0 ? l1 : FALLBACK.l1dBytes, l2 > 0 ? l2 : FALLBACK.l2Bytes, complete);
    }

    /** sysfs sizes: {@code 48K}, {@code 2048K}, {@code 32M} (the probe's {@code CacheSizes} reads them here too). */
    public static long sizeBytes(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = t.endsWith("K") ? 1L << 10 : t.endsWith("M") ? 1L << 20 : t.endsWith("G") ? 1L << 30 : 1;
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        return Long.parseLong(digits) * unit;
    }
}
