package dev.sparseprof.kernel;

import dev.sparseprof.util.Checks;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fixed set of worker threads for multi-threaded kernels: {@link #runAll} runs part
 * {@code t} of a task on thread {@code t} (part 0 on the caller) and records each part's wall time,
 * so that the harness can compute the imbalance factor. Owned by the caller; close it when done.
 */
public final class WorkerPool implements AutoCloseable {
    /** One thread's part of a parallel task. */
    @FunctionalInterface
    public interface Part {
        void run(int thread);
    }

    private final int threads;
    private final ExecutorService executor;
    private final Future<?>[] pending;

    public WorkerPool(int threads) {
        this.threads = Checks.positive(threads, "threads");
        this.executor = threads > 1 ? Executors.newFixedThreadPool(threads - 1, r -> {
            Thread t = new Thread(r, "sparseprof-kernel");
            t.setDaemon(true);
            return t;
        }) : null;
        this.pending = new Future<?>[threads];
    }

    public int threads() { return threads; }

    /** Runs {@code part(0..threads-1)} in parallel and waits; {@code threadNanos[t]} gets part t's time. */
    public void runAll(Part part, long[] threadNanos) {
        for (int t = 1; t < threads; t++) {
            final int thread = t;
            pending[t] = executor.submit(() -> timed(part, thread, threadNanos));
        }
        timed(part, 0, threadNanos);
        for (int t = 1; t < threads; t++) {
            try {
                pending[t].get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for kernel thread " + t, e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException re) throw re;
                throw new IllegalStateException("kernel thread " + t + " failed", e.getCause());
            }
        }
    }

    private static void timed(Part part, int thread, long[] threadNanos) {
        long start = System.nanoTime();
        part.run(thread);
        threadNanos[thread] = System.nanoTime() - start;
    }

    @Override
    public void close() {
        if (executor != null) executor.shutdownNow();
    }
}
