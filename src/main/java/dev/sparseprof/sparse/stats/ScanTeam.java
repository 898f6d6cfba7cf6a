package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One scan of several matrices by one team of threads: the calling thread and {@code threads - 1}
 * started once for the whole list (starting a thread took about a millisecond on a 2-vCPU VM, and
 * the scan used to start two per matrix). Each thread claims the next {@link RowTasks} task until
 * none is left, adding its rows to its own part of the task's matrix; a thread that moves on to
 * another matrix finishes its part and merges it into the matrix's total, and the thread whose
 * part completes a matrix's rows turns the total into its statistics (row and column length
 * summaries: 40-55 ms for a 7B checkpoint's 227 matrices when the calling thread made them all at
 * the end, while the other cores idled). Parts merge by addition, so the statistics do not depend
 * on the thread count, the task size or which thread took which task.
 */
final class ScanTeam {
    private final List<? extends MatrixView> matrices;
    private final ScanOptions options;
    private final RowTasks tasks;
    private final ProgressCounter progress;
    private final int[][] rowLengths;
    private final RowRangeScan[] totals;
    /** Rows merged into each total so far (guarded by {@link #totals}). */
    private final long[] merged;
    private final MatrixStats[] results;
    private final AtomicInteger next = new AtomicInteger();

    ScanTeam(List<? extends MatrixView> matrices, ScanOptions options, RowTasks tasks, ProgressCounter progress) {
        this.matrices = matrices;
        this.options = options;
        this.tasks = tasks;
        this.progress = progress;
        this.rowLengths = new int[matrices.size()][];
        this.totals = new RowRangeScan[matrices.size()];
        this.merged = new long[matrices.size()];
        this.results = new MatrixStats[matrices.size()];
        for (int m = 0; m < rowLengths.length; m++) rowLengths[m] = new int[matrices.get(m).rows()];
    }

    /** Scans every matrix and returns their statistics, in list order. */
    List<MatrixStats> run() {
        int helpers = Math.min(options.threads(), tasks.size()) - 1;
        Thread[] threads = new Thread[Math.max(0, helpers)];
        Throwable[] failures = new Throwable[threads.length + 1];
        for (int i = 0; i < threads.length; i++) {
            int index = i + 1;
            threads[i] = Thread.ofPlatform().name("stats-scan-" + index).start(() -> failures[index] = work());
        }
        failures[0] = work();
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SparseprofException("matrix scan interrupted");
            }
        }
        for (Throwable failure : failures) {
            if (failure instanceof RuntimeException re) throw re;
            if (failure instanceof Error err) throw err;
        }
        List<MatrixStats> out = new ArrayList<>(matrices.size());
        for (int m = 0; m < results.length; m++) {
            out.add(results[m] != null ? results[m] : empty(m).result(0)); // no rows: no task
        }
        return out;
    }

    /** One thread's share: tasks until none is left; returns what it threw, or null. */
    private Throwable work() {
        int current = -1;
        RowRangeScan part = null;
        try {
            for (int t = next.getAndIncrement(); t < tasks.size(); t = next.getAndIncrement()) {
                int m = tasks.matrix(t);
                if (m != current) {
                    if (part != null) deposit(current, part);
                    MatrixView v = matrices.get(m);
                    part = new RowRangeScan(v.rows(), v.cols(), rowLengths[m], options);
                    current = m;
                }
                part.scan(matrices.get(m), tasks.from(t), tasks.to(t), progress);
            }
            if (part != null) deposit(current, part);
            return null;
        } catch (Throwable t) {
            next.set(tasks.size()); // the others stop at their next claim
            return t;
        }
    }

    private void deposit(int m, RowRangeScan part) {
        part.finish();
        int rows = matrices.get(m).rows();
        boolean complete;
        synchronized (totals) {
            if (totals[m] == null) totals[m] = part;
            else totals[m].merge(part);
            merged[m] += part.rowsAdded();
            complete = merged[m] == rows;
        }
        if (complete) results[m] = totals[m].result(rows); // every part is in: no thread touches the total again
    }

    private RowRangeScan empty(int m) {
        MatrixView v = matrices.get(m);
        RowRangeScan empty = new RowRangeScan(v.rows(), v.cols(), rowLengths[m], options);
        empty.finish();
        return empty;
    }
}
