package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Per-CPU speeds: the spread, and the slowest relative to the first CPU (the one single-threaded runs take). */
class CoreSpeedsTest {
    @Test
    void speedsAreRelativeToTheFirstCpuAndTheSpecKeepsTheSlowestAtMostOne() {
        CoreSpeeds vm = new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 125e9});
        assertEquals(0.625, vm.spread(), 1e-12);
        assertEquals(0.625, vm.slowestOverFirst(), 1e-12);
        // a faster second CPU leaves the first the slowest: no stretch, but the spread shows
        CoreSpeeds other = new CoreSpeeds(new int[] {0, 1}, new double[] {100e9, 200e9});
        assertEquals(1, other.slowestOverFirst(), 0);
        assertEquals(0.5, other.spread(), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> new CoreSpeeds(new int[] {0}, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> new CoreSpeeds(new int[] {0, 1}, new double[] {1, 0}));
    }

    @Test
    void aMeasurementCoversEveryAllowedCpuOrNone() {
        CoreSpeeds s = CoreSpeeds.measure(0.002);
        if (s == null) return; // one CPU, or no affinity on this OS
        assertArrayEquals(dev.sparseprof.util.CoreAffinity.allowed(), s.cpus());
        for (double f : s.flopsPerSecond()) assertTrue(f > 0, "rate " + f); // unwarmed and short: any positive rate
    }
}
