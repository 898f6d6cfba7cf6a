package dev.sparseprof.util;

import java.util.concurrent.atomic.AtomicReference;

/**
 * One worker on the calling thread and more on platform daemon threads, joined before returning.
 *
 * <p>Contract: {@link #run} calls {@code worker.run(i)} for {@code i = 0..threads-1}, index 0 on the
 * calling thread, the others each on a thread named {@code name-i}. The first {@link Throwable} any
 * worker throws is set in {@code failure}, which the workers poll to stop taking work (the others'
 * failures after it are dropped). An interrupt of the calling thread while it waits is recorded there
 * too (as its {@link InterruptedException}), the wait goes on until every worker has returned, and
 * the thread's interrupt flag is set again. Returns the first failure, or null: what to throw is the
 * caller's.
 */
public final class WorkerThreads {
    /** Worker {@code index} of the team. */
    @FunctionalInterface
    public interface Worker {
        void run(int index) throws Exception;
    }

    private WorkerThreads() {}

    public static Throwable run(String name, int threads, AtomicReference<Throwable> failure, Worker worker) {
        Thread[] others = new Thread[Math.max(0, threads - 1)];
        for (int i = 0; i < others.length; i++) {
            int index = i + 1;
            others[i] = Thread.ofPlatform().name(name + "-" + index).daemon().start(() -> work(index, failure, worker));
        }
        work(0, failure, worker);
        boolean interrupted = false;
        for (Thread t : others) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the workers stop on their own once a failure is set
                    failure.compareAndSet(null, e);
                }
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        return failure.get();
    }

    private static void work(int index, AtomicReference<Throwable> failure, Worker worker) {
        try {
            worker.run(index);
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }
}
