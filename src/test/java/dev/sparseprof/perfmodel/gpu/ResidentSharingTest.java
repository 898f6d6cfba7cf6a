package dev.sparseprof.perfmodel.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Mean value analysis of the programs resident on an SM: limits, bounds and the knee. */
class ResidentSharingTest {
    @Test
    void oneResidentTakesItsWholeStepAlone() {
        assertEquals(10 + 3 + 5 + 2, ResidentSharing.stepSeconds(1, 10, 3, 5, 2), 1e-12);
    }

    @Test
    void manyResidentsSaturateTheBusiestResource() {
        // Far past the knee the SM runs one step per busiest-resource demand.
        assertEquals(5, ResidentSharing.stepSeconds(64, 10, 3, 5, 2), 1e-3);
        // Far before it, latency-bound: the serial step over the residents.
        assertEquals((1000 + 0.3) / 2, ResidentSharing.stepSeconds(2, 1000, 0.1, 0.1, 0.1), 0.01);
    }

    @Test
    void atTheKneeQueueingStretchesTheStepAboveBothBounds() {
        // 64 x 64 fp16 on the A100 spec, in clocks: 622 alone (dependent loads, tileStep), L2 copy 346, SRAM 512, math 256.
        double step = ResidentSharing.stepSeconds(3, 622, 346, 512, 256);
        double bound = Math.max(512, (622 + 346 + 512 + 256) / 3.0);
        assertTrue(step > 1.1 * bound, step + " vs " + bound);
        // Fixed-length phases wait half a phase for the one in service: less than exponential ones would (the
        // textbook MVA, 765 clocks here), more than the plain bound.
        assertTrue(step < 765, Double.toString(step));
        assertEquals(678.4, step, 0.1, "MVA with the residual-life correction, by hand in docs/perfmodel.md");
        // More residents never slow the SM down.
        double previous = Double.POSITIVE_INFINITY;
        for (int n = 1; n <= 16; n++) {
            double s = ResidentSharing.stepSeconds(n, 622, 346, 512, 256);
            assertTrue(s <= previous + 1e-9, n + ": " + s);
            assertTrue(s >= 512 - 1e-9 && s >= (622 + 346 + 512 + 256) / n - 1e-9, n + ": " + s);
            previous = s;
        }
        assertThrows(IllegalArgumentException.class, () -> ResidentSharing.stepSeconds(0, 1, 1));
    }
}
