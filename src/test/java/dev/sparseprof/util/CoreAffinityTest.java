package dev.sparseprof.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
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
    void aTeamIsPinnedToTheCpusOfTheProcessMask() {
        byte[] taskset13 = new byte[CoreAffinity.MASK_BYTES];
        taskset13[0] = 0b1010; // taskset -c 1,3
        assertArrayEquals(new int[] {1, 3}, CoreAffinity.pinnable(taskset13), "the mask's CPUs, not 0..n-1");
        byte[] high = new byte[CoreAffinity.MASK_BYTES];
        high[8] = 0b11; // CPUs 64 and 65
        assertArrayEquals(new int[] {64, 65}, CoreAffinity.pinnable(high));
        byte[] taskset1 = new byte[CoreAffinity.MASK_BYTES];
        taskset1[0] = 0b10; // taskset -c 1: one CPU, nothing to choose
        assertArrayEquals(new int[0], CoreAffinity.pinnable(taskset1));
        assertArrayEquals(new int[0], CoreAffinity.pinnable(null), "an unreadable mask pins nothing");
    }

    @Test
    void aThreadPinnedToOneCpuStillSeesTheProcessCpus() throws Exception {
        assumeTrue(CoreAffinity.available(), "no sched_setaffinity here");
        int[] process = CoreAffinity.processCpus();
        assumeTrue(process.length >= 2, "one CPU: nothing to pin");
        Thread t = new Thread(() -> {
            byte[] mask = CoreAffinity.current();
            assertTrue(CoreAffinity.pin(process[process.length - 1]));
            assertArrayEquals(new int[] {process[process.length - 1]}, CoreAffinity.allowed());
            assertArrayEquals(process, CoreAffinity.processCpus());
            int[] pinnable = CoreAffinity.pinnable();
            Arrays.sort(pinnable); // spread over the cores first, not ascending
            assertArrayEquals(process, pinnable, "a pinned caller still chooses among the process's CPUs");
            assertTrue(CoreAffinity.set(mask));
        });
        Throwable[] failure = new Throwable[1];
        t.setUncaughtExceptionHandler((th, e) -> failure[0] = e);
        t.start();
        t.join();
        if (failure[0] != null) throw new AssertionError(failure[0]);
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
