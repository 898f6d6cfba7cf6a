package dev.sparseprof.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.CoreAffinity;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/** The spinning hand-off: every part runs once per call, on its own thread, spinning or parked. */
class WorkerPoolTest {
    @Test
    void everyPartRunsOncePerCallWhetherTheWorkersSpinOrPark() throws Exception {
        for (long spin : new long[] {WorkerPool.DEFAULT_SPIN_NANOS, 0}) {
            try (WorkerPool pool = new WorkerPool(3, spin)) {
                AtomicIntegerArray runs = new AtomicIntegerArray(3);
                String[] names = new String[3];
                long[] nanos = new long[3];
                for (int call = 0; call < 500; call++) {
                    pool.runAll(t -> {
                        runs.incrementAndGet(t);
                        names[t] = Thread.currentThread().getName();
                    }, nanos);
                    if (call % 100 == 0) Thread.sleep(3); // past the spin: the workers park and are woken
                }
                for (int t = 0; t < 3; t++) assertEquals(500, runs.get(t), "part " + t + ", spin " + spin);
                assertEquals(Thread.currentThread().getName(), names[0]);
                assertEquals("sparseprof-kernel-1", names[1]);
                assertEquals("sparseprof-kernel-2", names[2]);
                for (long n : nanos) assertTrue(n >= 0);
            }
        }
    }

    @Test
    void aWorkersFailureReachesTheCallerAndThePoolGoesOn() {
        try (WorkerPool pool = new WorkerPool(2)) {
            IllegalArgumentException boom = new IllegalArgumentException("boom");
            long[] nanos = new long[2];
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> pool.runAll(t -> {
                if (t == 1) throw boom;
            }, nanos));
            assertSame(boom, thrown);
            int[] seen = new int[2];
            pool.runAll(t -> seen[t] = t + 1, nanos);
            assertArrayEquals(new int[] {1, 2}, seen);
        }
    }

    @Test
    void theCallersOwnFailureWaitsForTheWorkers() {
        try (WorkerPool pool = new WorkerPool(2)) {
            int[] done = new int[1];
            assertThrows(IllegalStateException.class, () -> pool.runAll(t -> {
                if (t == 0) throw new IllegalStateException("caller part");
                done[0] = 1;
            }, new long[2]));
            assertEquals(1, done[0]); // the worker's part finished before runAll returned
        }
    }

    @Test
    void aClosedPoolRefusesWork() {
        WorkerPool pool = new WorkerPool(2);
        pool.close();
        assertThrows(IllegalStateException.class, () -> pool.runAll(t -> { }, new long[2]));
        assertThrows(IllegalArgumentException.class, () -> new WorkerPool(2, -1));
    }

    @Test
    void aPinnedPoolRunsPartTOnTheTthCpuAndGivesTheCallerItsMaskBack() throws Exception {
        int[] allowed = CoreAffinity.allowed();
        org.junit.jupiter.api.Assumptions.assumeTrue(CoreAffinity.available() && allowed.length > 1, "one CPU or no affinity");
        Thread caller = new Thread(() -> {
            int[] cpus = new int[2];
            try (WorkerPool pool = WorkerPool.pinned(2)) {
                assertArrayEquals(allowed, pool.cpus());
                pool.runAll(t -> cpus[t] = CoreAffinity.allowed().length == 1 ? CoreAffinity.allowed()[0] : -1, new long[2]);
            }
            assertArrayEquals(new int[] {allowed[0], allowed[1]}, cpus);
            assertArrayEquals(allowed, CoreAffinity.allowed()); // the caller's own mask is back
        });
        Throwable[] failure = new Throwable[1];
        caller.setUncaughtExceptionHandler((th, e) -> failure[0] = e);
        caller.start();
        caller.join();
        if (failure[0] != null) throw new AssertionError(failure[0]);
        try (WorkerPool plain = new WorkerPool(2)) {
            assertEquals(0, plain.cpus().length);
        }
    }
}
