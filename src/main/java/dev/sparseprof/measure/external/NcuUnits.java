package dev.sparseprof.measure.external;

import java.util.Locale;

/**
 * ncu's units to SI base units. ncu scales bytes by powers of 1000 ({@code Kbyte} = 1000 bytes; Nsight
 * Compute CLI docs, {@code --print-units}), times by {@code nsecond}/{@code usecond}/{@code msecond}.
 */
final class NcuUnits {
    private NcuUnits() {}

    /** Bytes in one {@code unit}, or NaN when it is not a byte unit. */
    static double bytesPer(String unit) {
        return switch (unit.strip().toLowerCase(Locale.ROOT)) {
            case "byte", "bytes", "b" -> 1.0;
            case "kbyte", "kb" -> 1e3;
            case "mbyte", "mb" -> 1e6;
            case "gbyte", "gb" -> 1e9;
            case "tbyte", "tb" -> 1e12;
            default -> Double.NaN;
        };
    }

    /** Seconds in one {@code unit}, or NaN when it is not a time unit. */
    static double secondsPer(String unit) {
        return switch (unit.strip().toLowerCase(Locale.ROOT)) {
            case "second", "s" -> 1.0;
            case "msecond", "ms" -> 1e-3;
            case "usecond", "us" -> 1e-6;
            case "nsecond", "ns" -> 1e-9;
            default -> Double.NaN;
        };
    }
}
