package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** measure's table prints every time with three significant digits in one unit style (issue 12: {@code 0.004ms}). */
class MeasureFormatTest {
    @Test
    void threeSignificantDigits() {
        assertEquals("4.12 us", MeasureCommand.ms(4.123e-6));
        assertEquals("41.2 us", MeasureCommand.ms(41.23e-6));
        assertEquals("412 us", MeasureCommand.ms(412.3e-6));
        assertEquals("1.00 ms", MeasureCommand.ms(999.7e-6));
        assertEquals("1.11 ms", MeasureCommand.ms(1.114e-3));
        assertEquals("16.6 ms", MeasureCommand.ms(16.64e-3));
        assertEquals("1.05 s", MeasureCommand.ms(1.049));
        assertEquals("850 ns", MeasureCommand.ms(850e-9));
    }
}
