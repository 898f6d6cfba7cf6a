package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.CoreAffinity;
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
    void equalCoresAreTakenOnceAndUnequalOnesAgainEachCpuKeepingItsBest() {
        Deque<CoreSpeeds> draws = new ArrayDeque<>();
        int[] pauses = {0};
        Runnable pause = () -> pauses[0]++;
        int[] cpus = {0, 1};
        CoreSpeeds equal = CoreSpeeds.settled(new CoreSpeeds(cpus, new double[] {200e9, 197e9}), draws::poll, pause);
        assertEquals(1, equal.takes());
        assertEquals(0, pauses[0]);
        // a faster second CPU leaves nothing to settle (the first is the slowest)
        assertEquals(1, CoreSpeeds.settled(new CoreSpeeds(cpus, new double[] {150e9, 200e9}), draws::poll, pause).takes());
        // a tenant through the first take only: the second take, at once (the caller took the first seconds before), settles it
        draws.add(new CoreSpeeds(cpus, new double[] {199e9, 199e9}));
        CoreSpeeds transient_ = CoreSpeeds.settled(new CoreSpeeds(cpus, new double[] {200e9, 160e9}), draws::poll, pause);
        assertEquals(2, transient_.takes());
        assertEquals(0.995, transient_.slowestOverFirst(), 1e-12);
        assertEquals(0, pauses[0]);
        assertTrue(transient_.describe().endsWith("(each CPU's best of 2 takes)"), transient_.describe());
        // a tenant on either CPU in turn: each CPU's best take, after a pause before the third
        draws.addAll(List.of(new CoreSpeeds(cpus, new double[] {150e9, 200e9}), new CoreSpeeds(cpus, new double[] {200e9, 150e9})));
        CoreSpeeds turns = CoreSpeeds.settled(new CoreSpeeds(cpus, new double[] {200e9, 150e9}), draws::poll, pause);
        assertEquals(2, turns.takes());
        assertEquals(1, turns.slowestOverFirst(), 1e-12);
        assertEquals(1, draws.size(), "settled after two takes");
        draws.clear();
        // a core that is slower in every take stays slower, at its best take
        draws.addAll(List.of(new CoreSpeeds(cpus, new double[] {200e9, 120e9}), new CoreSpeeds(cpus, new double[] {190e9, 125e9})));
        CoreSpeeds slow = CoreSpeeds.settled(new CoreSpeeds(cpus, new double[] {200e9, 130e9}), draws::poll, pause);
        assertEquals(3, slow.takes());
        assertEquals(0.65, slow.slowestOverFirst(), 1e-12);
        assertEquals(1, pauses[0], "one pause, before the third take");
        // no affinity: nothing to settle; a later take that cannot be made keeps what was taken
        assertNull(CoreSpeeds.settled(null, draws::poll, pause));
        CoreSpeeds lone = new CoreSpeeds(cpus, new double[] {200e9, 100e9});
        assertEquals(lone, CoreSpeeds.settled(lone, () -> null, pause));
        assertThrows(IllegalArgumentException.class, () -> new CoreSpeeds(new int[] {0}, new double[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> lone.faster(new CoreSpeeds(new int[] {0, 2}, new double[] {1, 1})));
    }

    @Test
    void aMeasurementCoversEveryAllowedCpuOrNone() {
        CoreSpeeds s = CoreSpeeds.measure(0.002);
        if (s == null) return; // one CPU, or no affinity on this OS
        assertArrayEquals(CoreAffinity.allowed(), s.cpus());
        for (double f : s.flopsPerSecond()) assertTrue(f > 0, "rate " + f); // unwarmed and short: any positive rate
    }
}
