package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.WorkerThreads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs one task per layer on a few threads: the calling thread and up to {@code threads - 1} more,
 * each taking the next task index until none is left, with scratch state of its own (made once
 * per thread by the supplier, reused across its tasks). The first failure stops the others from
 * taking more and is thrown on the calling thread. Tasks must be independent: results that depend
 * on order are the caller's to merge after {@link #run} returns.
 */
final class LayerTeam {
    /** The threads a counting pass runs on: one per core, at most 4 (the writers' count, {@code PrunedWriter}). */
    static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    /** One task: index {@code k} with the thread's scratch {@code state}. */
    @FunctionalInterface
    interface Task<S> {
        void run(int k, S state);
    }

    private LayerTeam() {}

    /** Runs tasks {@code 0..count-1}; returns each thread's state (for the caller to merge). */
    static <S> List<S> run(int count, int threads, Supplier<S> scratch, Task<S> task) {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int n = Math.max(1, Math.min(threads, count));
        List<S> states = new ArrayList<>(n);
        for (int i = 0; i < n; i++) states.add(scratch.get());
        Throwable e = WorkerThreads.run("prune-count", n, failure, i -> {
            S state = states.get(i);
            for (int k; failure.get() == null && (k = next.getAndIncrement()) < count; ) task.run(k, state);
        });
        if (e instanceof RuntimeException r) throw r;
        if (e instanceof Error err) throw err;
        if (e != null) throw new IllegalStateException("interrupted while counting", e);
        return states;
    }
}
