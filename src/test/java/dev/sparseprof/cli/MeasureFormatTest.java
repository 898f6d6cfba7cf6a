package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.util.Units;
import org.junit.jupiter.api.Test;

/** measure's table (Units.formatSeconds) prints every time with three significant digits in one unit style (issue 12: {@code 0.004ms}). */
class MeasureFormatTest {
    @Test
    void threeSignificantDigits() {
        assertEquals("4.12 us", Units.formatSeconds(4.123e-6));
        assertEquals("41.2 us", Units.formatSeconds(41.23e-6));
        assertEquals("412 us", Units.formatSeconds(412.3e-6));
        assertEquals("1.00 ms", Units.formatSeconds(999.7e-6));
        assertEquals("1.11 ms", Units.formatSeconds(1.114e-3));
        assertEquals("16.6 ms", Units.formatSeconds(16.64e-3));
        assertEquals("1.05 s", Units.formatSeconds(1.049));
        assertEquals("850 ns", Units.formatSeconds(850e-9));
    }
}
