package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
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
    void equalCoresAreTakenOnceAndAnUnequalFirstTakeIsTakenAgainAndTheMedianKept() {
        Deque<CoreSpeeds> draws = new ArrayDeque<>();
        int[] pauses = {0};
        Runnable pause = () -> pauses[0]++;
        draws.add(new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 197e9}));
        CoreSpeeds equal = CoreSpeeds.settled(draws::poll, pause);
        assertEquals(1, equal.takes());
        assertEquals(0, pauses[0]);
        // a faster second CPU leaves nothing to settle (the first is the slowest)
        draws.add(new CoreSpeeds(new int[] {0, 1}, new double[] {150e9, 200e9}));
        assertEquals(1, CoreSpeeds.settled(draws::poll, pause).takes());
        // a tenant through the first take only: the two undisturbed takes outvote it
        draws.addAll(List.of(new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 191e9}),
                new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 199e9}),
                new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 198e9})));
        CoreSpeeds transient_ = CoreSpeeds.settled(draws::poll, pause);
        assertEquals(3, transient_.takes());
        assertEquals(0.99, transient_.slowestOverFirst(), 1e-12);
        assertEquals(2, pauses[0]);
        assertTrue(transient_.describe().endsWith("(the median of 3 takes)"), transient_.describe());
        // a core that is slower in every take stays slower
        draws.addAll(List.of(new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 130e9}),
                new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 120e9}),
                new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 190e9})));
        assertEquals(0.65, CoreSpeeds.settled(draws::poll, pause).slowestOverFirst(), 1e-12);
        // no affinity: nothing to settle
        assertNull(CoreSpeeds.settled(() -> null, pause));
        assertThrows(IllegalArgumentException.class, () -> new CoreSpeeds(new int[] {0}, new double[] {1}, 0));
    }

    @Test
    void aMeasurementCoversEveryAllowedCpuOrNone() {
        CoreSpeeds s = CoreSpeeds.measure(0.002);
        if (s == null) return; // one CPU, or no affinity on this OS
        assertArrayEquals(dev.sparseprof.util.CoreAffinity.allowed(), s.cpus());
        for (double f : s.flopsPerSecond()) assertTrue(f > 0, "rate " + f); // unwarmed and short: any positive rate
    }
}
