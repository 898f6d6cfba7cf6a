package dev.sparseprof.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every index runs once, index 0 on the calling thread; the first failure is kept and returned. */
class WorkerThreadsTest {
    @Test
    void everyIndexRunsOnceAndTheCallerTakesIndexZero() {
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        Thread caller = Thread.currentThread();
        AtomicReference<Thread> zero = new AtomicReference<>();
        assertNull(WorkerThreads.run("t", 3, new AtomicReference<>(), i -> {
            seen.add(i);
            if (i == 0) zero.set(Thread.currentThread());
        }));
        assertEquals(Set.of(0, 1, 2), seen);
        assertSame(caller, zero.get());
    }

    @Test
    void theFirstFailureIsReturnedAfterEveryWorkerEnded() {
        IllegalStateException boom = new IllegalStateException("boom");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Set<Integer> ended = ConcurrentHashMap.newKeySet();
        Throwable got = WorkerThreads.run("t", 2, failure, i -> {
            try {
                if (i == 1) throw boom;
                while (failure.get() == null) Thread.onSpinWait(); // worker 0 stops once the failure is set
            } finally {
                ended.add(i);
            }
        });
        assertSame(boom, got);
        assertEquals(Set.of(0, 1), ended);
    }
}
