package dev.sparseprof.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The affinity mask's bits, and a pin that comes back as it was (where this OS lets the tests set it). */
class CoreAffinityTest {
    @Test
    void aMaskListsItsCpusAscending() {
        byte[] mask = new byte[CoreAffinity.MASK_BYTES];
        mask[0] = 0b101;
        mask[1] = (byte) 0x80;
        assertArrayEquals(new int[] {0, 2, 15}, CoreAffinity.cpus(mask));
        assertArrayEquals(new int[0], CoreAffinity.cpus(new byte[CoreAffinity.MASK_BYTES]));
    }

    @Test
    void aThreadPinnedToOneCpuGetsItsMaskBack() throws Exception {
        assumeTrue(CoreAffinity.available(), "no sched_setaffinity here");
        int[] before = CoreAffinity.allowed();
        assertTrue(before.length >= 1);
        Thread t = new Thread(() -> {
            byte[] mask = CoreAffinity.current();
            assertTrue(CoreAffinity.pin(before[before.length - 1]));
            assertArrayEquals(new int[] {before[before.length - 1]}, CoreAffinity.allowed());
            assertTrue(CoreAffinity.set(mask));
            assertArrayEquals(before, CoreAffinity.allowed());
        });
        Throwable[] failure = new Throwable[1];
        t.setUncaughtExceptionHandler((th, e) -> failure[0] = e);
        t.start();
        t.join();
        if (failure[0] != null) throw new AssertionError(failure[0]);
        assertTrue(!CoreAffinity.pin(-1) && !CoreAffinity.pin(CoreAffinity.MASK_BYTES * 8));
    }
}
