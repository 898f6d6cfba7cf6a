package dev.sparseprof.kernel;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.CoreAffinity;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed set of worker threads for multi-threaded kernels: {@link #runAll} runs part
 * {@code t} of a task on thread {@code t} (part 0 on the caller) and records each part's wall time,
 * so that the harness can compute the imbalance factor. Owned by the caller; close it when done.
 *
 * <p>Hand-off: a worker that has finished a part spins (up to {@link #DEFAULT_SPIN_NANOS}) on its
 * slot's generation before it parks, and the caller spins on the workers' done marks before it
 * polls at {@link #POLL_NANOS}. A kernel call of tens of microseconds so starts and joins its
 * workers in well under a microsecond, as OpenMP's active wait policy does. A blocking queue
 * (an executor) instead paid a futex wake of a halted vCPU on every call: 85-110 us per call on
 * the 2-vCPU build VM, more than a whole sparse layer's work (docs/kernels.md, fork/join cost).
 * {@code runAll} is for one calling thread at a time.
 *
 * <p>A {@link #pinned} pool (the measurements' and the probe's) runs part {@code t} on the
 * {@code t}-th CPU this process may use ({@code util.CoreAffinity}): the workers are pinned as they
 * start, the calling thread on its first call (its own mask comes back when it closes the pool), so
 * a single-threaded run always takes the first CPU and a probe's rates and a measurement's runs
 * come from the same cores; unpinned, the scheduler chose, and a VM's unequal vCPUs (the Zen 5 VM's
 * second ran the same layer 1.3-1.6x slower) made one JVM's runs differ from the next.
 */
public final class WorkerPool implements AutoCloseable {
    /** One thread's part of a parallel task. */
    @FunctionalInterface
    public interface Part {
        void run(int thread);
    }

    /** How long an idle worker spins before it parks: long enough to span a harness's gap between calls. */
    public static final long DEFAULT_SPIN_NANOS = 2_000_000;
    /** How often the caller checks the workers once its own spin has run out (long parts). */
    static final long POLL_NANOS = 20_000;

    private final int threads;
    private final long spinNanos;
    private final Slot[] slots;
    private Part task;
    private long[] taskNanos;
    private long generation;
    private volatile boolean closed;
    /** The CPUs part t runs on ({@code cpus[t % length]}); empty: unpinned. */
    private final int[] cpus;
    /** The calling thread pinned by this pool, and the mask it had before. */
    private Thread pinnedCaller;
    private byte[] callerMask;

    public WorkerPool(int threads) {
        this(threads, DEFAULT_SPIN_NANOS);
    }

    /** {@code spinNanos}: how long idle workers and the waiting caller spin before they park (0: park at once). */
    public WorkerPool(int threads, long spinNanos) {
        this(threads, spinNanos, new int[0]);
    }

    /** A pool whose part t runs on the t-th CPU this process may use (see the class comment); unpinned where affinity cannot be set. */
    public static WorkerPool pinned(int threads) {
        return new WorkerPool(threads, DEFAULT_SPIN_NANOS, CoreAffinity.pinnable());
    }

    private WorkerPool(int threads, long spinNanos, int[] cpus) {
        this.threads = Checks.positive(threads, "threads");
        if (spinNanos < 0) throw new IllegalArgumentException("spinNanos must not be negative, got " + spinNanos);
        this.spinNanos = spinNanos;
        this.cpus = cpus;
        this.slots = new Slot[threads];
        for (int t = 1; t < threads; t++) {
            Slot s = new Slot();
            slots[t] = s;
            final int thread = t;
            s.thread = new Thread(() -> {
                if (cpus.length > 0) CoreAffinity.pin(cpus[thread % cpus.length]);
                work(thread, s);
            }, "sparseprof-kernel-" + t);
            s.thread.setDaemon(true);
            s.thread.start();
        }
    }

    public int threads() { return threads; }

    /** Runs {@code part(0..threads-1)} in parallel and waits; {@code threadNanos[t]} gets part t's time. */
    public void runAll(Part part, long[] threadNanos) {
        if (closed) throw new IllegalStateException("worker pool closed");
        if (cpus.length > 0 && pinnedCaller != Thread.currentThread()) pinCaller();
        if (threads == 1) {
            timed(part, 0, threadNanos);
            return;
        }
        task = part;
        taskNanos = threadNanos;
        long gen = ++generation;
        for (int t = 1; t < threads; t++) {
            Slot s = slots[t];
            s.go = gen; // volatile write: publishes task and taskNanos
            if (s.sleeping) LockSupport.unpark(s.thread);
        }
        Throwable failure = null;
        try {
            timed(part, 0, threadNanos);
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (int t = 1; t < threads; t++) {
            Slot s = slots[t];
            awaitDone(s, gen);
            if (s.failure != null && failure == null) failure = s.failure;
            s.failure = null;
        }
        task = null;
        taskNanos = null;
        if (failure instanceof RuntimeException re) throw re;
        if (failure instanceof Error e) throw e;
        if (failure != null) throw new IllegalStateException("a kernel thread failed", failure);
    }

    private void awaitDone(Slot s, long gen) {
        long spinUntil = System.nanoTime() + spinNanos;
        while (s.done != gen) {
            if (System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, POLL_NANOS);
            }
        }
    }

    private void work(int thread, Slot s) {
        long seen = 0;
        while (true) {
            long gen = awaitWork(s, seen);
            if (gen < 0) return;
            seen = gen;
            try {
                timed(task, thread, taskNanos);
            } catch (Throwable e) {
                s.failure = e;
            }
            s.done = gen; // volatile write: publishes the part's time and failure
        }
    }

    /** The next generation for this worker, or -1 once the pool is closed. */
    private long awaitWork(Slot s, long seen) {
        long spinUntil = System.nanoTime() + spinNanos;
        while (true) {
            long gen = s.go;
            if (gen != seen) return gen;
            if (closed) return -1;
            if (System.nanoTime() < spinUntil) {
                Thread.onSpinWait();
                continue;
            }
            // Park: announce it first, then look again, so that a caller that wrote go before
            // reading sleeping is either seen here or unparks this thread.
            s.sleeping = true;
            if (s.go == seen && !closed) LockSupport.park(this);
            s.sleeping = false;
            spinUntil = System.nanoTime() + spinNanos;
        }
    }

    private static void timed(Part part, int thread, long[] threadNanos) {
        long start = System.nanoTime();
        part.run(thread);
        threadNanos[thread] = System.nanoTime() - start;
    }

    /** Pins the calling thread to part 0's CPU, keeping its mask for {@link #close}. */
    private void pinCaller() {
        byte[] mask = CoreAffinity.current();
        if (mask != null && CoreAffinity.pin(cpus[0])) {
            pinnedCaller = Thread.currentThread();
            callerMask = mask;
        }
    }

    /** The CPUs the pool's parts run on, part t on {@code [t % length]}; empty when unpinned. */
    public int[] cpus() {
        return cpus.clone();
    }

    @Override
    public void close() {
        if (pinnedCaller == Thread.currentThread()) CoreAffinity.set(callerMask);
        pinnedCaller = null;
        closed = true;
        for (int t = 1; t < threads; t++) LockSupport.unpark(slots[t].thread);
    }

    /** One worker's hand-off state, padded apart so that two workers' flags share no cache line. */
    @SuppressWarnings("unused")
    private static final class Slot {
        long p0, p1, p2, p3, p4, p5, p6;
        volatile long go;
        volatile long done;
        volatile boolean sleeping;
        volatile Throwable failure;
        Thread thread;
        long q0, q1, q2, q3, q4, q5, q6;
    }
}
