package dev.sparseprof.util;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsing and printing of quantities with units, as they appear in specs and options.
 *
 * <p>Sizes: {@code 32k}, {@code 48KiB}, {@code 1m}, {@code 1MiB}, {@code 40MB} and plain bytes. A
 * size's k/m/g is always binary (cache sizes are never decimal; {@code 40MB} of L2 means 40 MiB).
 * Rates are decimal, as datasheets print them: {@code 1.41GHz}, {@code 2039GB/s},
 * {@code 312TFLOPS}, {@code 190ns}.
 */
public final class Units {
    private Units() {}

    private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*([0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\\s*([A-Za-z/]*)\\s*");

    /** Bytes from {@code 48KiB}, {@code 32k}, {@code 1m}, {@code 64}, {@code 64B}. */
    public static long parseBytes(String text) {
        Matcher m = match(text, "size");
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        long scale = switch (unit) {
            case "", "b" -> 1L;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            case "t", "tb", "tib" -> 1L << 40;
            default -> throw new SparseprofException("size '" + text + "': unknown unit '" + m.group(2)
                    + "' (use B, KiB, MiB, GiB, or k, m, g)");
        };
        double bytes = value * scale;
        if (bytes != Math.rint(bytes) || bytes > Long.MAX_VALUE) {
            throw new SparseprofException("size '" + text + "' is not a whole number of bytes");
        }
        return (long) bytes;
    }

    /** Hertz from {@code 1.41GHz}, {@code 1410MHz}. */
    public static double parseHertz(String text) {
        return parseScaled(text, "frequency", "hz");
    }

    /** Bytes per second from {@code 2039GB/s}, {@code 4.8TB/s}, {@code 38.7GB/s}. */
    public static double parseBytesPerSecond(String text) {
        return parseScaled(text, "bandwidth", "b/s");
    }

    /** Floating-point (or integer) operations per second from {@code 312TFLOPS}, {@code 624TOPS}. */
    public static double parseFlopsPerSecond(String text) {
        String t = text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.endsWith("ops") && !lower.endsWith("flops")) t = t.substring(0, t.length() - 3) + "FLOPS";
        return parseScaled(t, "throughput", "flops");
    }

    /** Seconds from {@code 190ns}, {@code 5us}, {@code 1.2ms}, {@code 2s}. */
    public static double parseSeconds(String text) {
        Matcher m = match(text, "time");
        double value = Double.parseDouble(m.group(1));
        return finite(text, "time", value * switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "s" -> 1.0;
            case "ms" -> 1e-3;
            case "us" -> 1e-6;
            case "ns" -> 1e-9;
            case "ps" -> 1e-12;
            default -> throw new SparseprofException("time '" + text + "': unknown unit '" + m.group(2)
                    + "' (use s, ms, us, ns)");
        });
    }

    /** Clock cycles from {@code 34cycles} or {@code 34cycle} (latencies quoted in core/SM clocks). */
    public static double parseCycles(String text) {
        Matcher m = match(text, "cycle count");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        if (!unit.equals("cycles") && !unit.equals("cycle")) {
            throw new SparseprofException("cycle count '" + text + "' must end in cycles");
        }
        return finite(text, "cycle count", Double.parseDouble(m.group(1)));
    }

    /** Bits from {@code 512bits}, {@code 256bit}: register and datapath widths. */
    public static long parseBits(String text) {
        Matcher m = match(text, "width");
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        if (!unit.equals("bits") && !unit.equals("bit")) {
            throw new SparseprofException("width '" + text + "' must end in bits");
        }
        double v = Double.parseDouble(m.group(1));
        if (v != Math.rint(v)) throw new SparseprofException("width '" + text + "' is not a whole number of bits");
        return (long) v;
    }

    private static double parseScaled(String text, String what, String baseUnit) {
        Matcher m = match(text, what);
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        if (!unit.endsWith(baseUnit)) {
            throw new SparseprofException(what + " '" + text + "' must end in " + baseUnit.toUpperCase(Locale.ROOT)
                    .replace("B/S", "B/s").replace("HZ", "Hz"));
        }
        String prefix = unit.substring(0, unit.length() - baseUnit.length());
        double scale = switch (prefix) {
            case "" -> 1.0;
            case "k" -> 1e3;
            case "m" -> 1e6;
            case "g" -> 1e9;
            case "t" -> 1e12;
            case "p" -> 1e15;
            default -> throw new SparseprofException(what + " '" + text + "': unknown prefix '" + prefix + "'");
        };
        return finite(text, what, value * scale);
    }

    /** {@code value}, refused when the text's number overflowed a double ({@code 1e308GB/s} is not a rate; it would make times 0 or NaN). */
    private static double finite(String text, String what, double value) {
        if (!Double.isFinite(value) || value > 1e30) throw new SparseprofException(what + " '" + text + "' is beyond any real machine (over 1e30)");
        return value;
    }

    private static Matcher match(String text, String what) {
        if (text == null) throw new SparseprofException(what + " is missing");
        Matcher m = NUMBER_UNIT.matcher(text);
        if (!m.matches()) throw new SparseprofException(what + " '" + text + "' is not a number with a unit");
        return m;
    }

    /** {@code 48 KiB}, {@code 1.5 MiB}, {@code 812 B}: for tables. */
    public static String formatBytes(double bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        int i = 0;
        double v = bytes;
        while (Math.abs(v) >= 1024 && i < units.length - 1) {
            v /= 1024;
            i++;
        }
        return i == 0 ? String.format(Locale.ROOT, "%.0f B", v) : String.format(Locale.ROOT, "%.2f %s", v, units[i]);
    }

    /**
     * Three significant digits in the unit that keeps the number in [1, 1000): {@code 439 us},
     * {@code 1.20 ms}, {@code 6.54 us}, {@code 12.3 s}; the one time style of every table.
     */
    public static String formatSeconds(double seconds) {
        if (!Double.isFinite(seconds)) return Double.isNaN(seconds) ? "-" : "inf";
        double a = Math.abs(seconds);
        if (a == 0) return "0 s";
        String[] units = {"s", "ms", "us", "ns"};
        double v = seconds;
        int u = 0;
        while (u < units.length - 1 && Math.abs(v) < 0.9995) {
            v *= 1e3;
            u++;
        }
        return significant3(v) + " " + units[u];
    }

    /** {@code v} with three significant digits and no exponent: 439, 43.9, 4.39 (1000 and up: whole numbers). */
    public static String significant3(double v) {
        double a = Math.abs(v);
        if (a >= 99.95) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 9.995) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 0.9995 || a == 0) return String.format(Locale.ROOT, "%.2f", v);
        return String.format(Locale.ROOT, "%.3g", v);
    }
}
