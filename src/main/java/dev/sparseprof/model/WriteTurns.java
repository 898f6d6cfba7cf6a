package dev.sparseprof.model;

import dev.sparseprof.util.WorkerThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The write tasks (tensors) of one or more output files, handed to writer threads so that two threads
 * write the same file only when no other file has work left. Linux filesystems (ext4, xfs, btrfs) hold
 * a file's inode lock ({@code i_rwsem}) for the whole of each buffered {@code write()}/{@code pwrite()},
 * the copy into the page cache included, so two threads writing one file take turns and the waiting
 * one spins on the lock ({@code rwsem_spin_on_owner}); two files have two locks and both copies run.
 *
 * <p>Contract: {@link #next} is called by each thread with the task it just finished (null at first)
 * and gives the next one, or null when none is left. It picks a file no thread is writing, the one
 * with the most bytes left (so the files drain together and the last stretch, where only one file is
 * left to share, is short); only when every file with work is being written does it share one (the
 * fewest writers, then the most bytes left). Within a file, tasks go largest first. The order only
 * decides who writes what when: every task writes its own bytes at its own offsets, so the output is
 * the same whatever the order.
 */
final class WriteTurns {
    /** Task {@code item} of file {@code file}, of {@code bytes} bytes. */
    record Task(int file, int item, long bytes) {}

    private final List<ArrayDeque<Task>> queues = new ArrayList<>();
    private final long[] bytesLeft;
    private final int[] writers;

    /** {@code bytes[f][i]}: the size of task {@code i} of file {@code f}. */
    WriteTurns(long[][] bytes) {
        bytesLeft = new long[bytes.length];
        writers = new int[bytes.length];
        for (int f = 0; f < bytes.length; f++) {
            Task[] tasks = new Task[bytes[f].length];
            for (int i = 0; i < tasks.length; i++) {
                tasks[i] = new Task(f, i, bytes[f][i]);
                bytesLeft[f] += bytes[f][i];
            }
            Arrays.sort(tasks, Comparator.comparingLong(Task::bytes).reversed().thenComparingInt(Task::item));
            queues.add(new ArrayDeque<>(Arrays.asList(tasks)));
        }
    }

    /** The task count over all files. */
    synchronized int size() {
        int n = 0;
        for (ArrayDeque<Task> q : queues) n += q.size();
        return n;
    }

    /** Ends {@code done} (null for none) and claims the next task, or null when none is left. */
    synchronized Task next(Task done) {
        if (done != null) writers[done.file()]--;
        int best = -1;
        for (int f = 0; f < queues.size(); f++) {
            if (queues.get(f).isEmpty()) continue;
            if (best < 0 || writers[f] < writers[best] || (writers[f] == writers[best] && bytesLeft[f] > bytesLeft[best])) best = f;
        }
        if (best < 0) return null;
        Task t = queues.get(best).poll();
        writers[best]++;
        bytesLeft[best] -= t.bytes();
        return t;
    }

    /** One task, with the thread's own direct buffer. */
    @FunctionalInterface
    interface Work {
        void run(Task task, ByteBuffer buffer) throws IOException;
    }

    /**
     * Runs every task on up to {@code threads} threads (this one and others), each with its own direct
     * buffer of {@code bufferBytes}; the first failure stops the others and is thrown here.
     */
    static void run(WriteTurns turns, int threads, int bufferBytes, Work work) throws IOException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Throwable e = WorkerThreads.run("prune-writer", Math.max(1, Math.min(threads, turns.size())), failure, i -> {
            ByteBuffer buffer = ByteBuffer.allocateDirect(bufferBytes);
            for (Task t = turns.next(null); t != null && failure.get() == null; t = turns.next(t)) work.run(t, buffer);
        });
        if (e instanceof InterruptedException) throw new InterruptedIOException("interrupted while writing");
        if (e instanceof IOException io) throw io;
        if (e instanceof RuntimeException r) throw r;
        if (e instanceof Error err) throw err;
    }
}
