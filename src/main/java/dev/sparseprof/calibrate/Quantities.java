package dev.sparseprof.calibrate;

import java.util.Locale;

/** Numbers with the units the spec schema reads ({@code 31.2GB/s}, {@code 3.70GHz}, {@code 2.5us}, {@code 7.8cycles}). */
final class Quantities {
    private Quantities() {}

    static String gigabytesPerSecond(double bytesPerSecond) {
        return String.format(Locale.ROOT, "%.4fGB/s", bytesPerSecond / 1e9);
    }

    static String gigahertz(double hertz) {
        return String.format(Locale.ROOT, "%.6fGHz", hertz / 1e9);
    }

    static String microseconds(double seconds) {
        return String.format(Locale.ROOT, "%.6fus", seconds * 1e6);
    }

    static String cycles(double cycles) {
        return String.format(Locale.ROOT, "%.6fcycles", cycles);
    }

    static String gflops(double flopsPerSecond) {
        return String.format(Locale.ROOT, "%.1f GFLOP/s", flopsPerSecond / 1e9);
    }

    /** Binary sizes as the schema reads them: {@code 48KiB}, {@code 2MiB}, {@code 480MiB}. */
    static String size(long bytes) {
        if (bytes % (1L << 30) == 0) return (bytes >> 30) + "GiB";
        if (bytes % (1L << 20) == 0) return (bytes >> 20) + "MiB";
        if (bytes % (1L << 10) == 0) return (bytes >> 10) + "KiB";
        return bytes + "B";
    }
}
