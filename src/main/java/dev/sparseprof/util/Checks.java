package dev.sparseprof.util;

/** Argument checks that throw {@link SparseprofException} (bad input), not assertion errors. */
public final class Checks {
    private Checks() {}

    public static int positive(int value, String what) {
        if (value <= 0) throw new SparseprofException(what + " must be positive, got " + value);
        return value;
    }

    public static long positive(long value, String what) {
        if (value <= 0) throw new SparseprofException(what + " must be positive, got " + value);
        return value;
    }

    public static long nonNegative(long value, String what) {
        if (value < 0) throw new SparseprofException(what + " must not be negative, got " + value);
        return value;
    }

    public static double fraction(double value, String what) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new SparseprofException(what + " must lie in [0, 1], got " + value);
        }
        return value;
    }

    public static boolean isPowerOfTwo(long value) {
        return value > 0 && (value & (value - 1)) == 0;
    }

    /** Exact int conversion for sizes that index Java arrays. */
    public static int toIntExact(long value, String what) {
        if (value < 0 || value > Integer.MAX_VALUE - 8) {
            throw new SparseprofException(what + " (" + value + ") does not fit a Java array");
        }
        return (int) value;
    }
}
