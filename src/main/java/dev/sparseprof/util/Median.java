package dev.sparseprof.util;

import java.util.Arrays;

/** The median the probes, fits and spec merges report: the middle value of an odd count, the mean of the middle two of an even one. */
public final class Median {
    private Median() {}

    /**
     * The median of {@code values}, which stay as they are.
     *
     * @throws IllegalArgumentException when there are none
     */
    public static double of(double[] values) {
        return of(values, values.length);
    }

    /**
     * The median of the first {@code count} of {@code values}, which stay as they are (one copy).
     *
     * @throws IllegalArgumentException when {@code count} is 0
     */
    public static double of(double[] values, int count) {
        if (count == 0) throw new IllegalArgumentException("median of nothing");
        double[] s = Arrays.copyOf(values, count);
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
