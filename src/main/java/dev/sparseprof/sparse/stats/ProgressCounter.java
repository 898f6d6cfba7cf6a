package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.Progress;
import java.util.concurrent.atomic.AtomicLong;

/** Rows done across scan threads, reported to a {@link Progress} by each thread every {@value #BATCH} rows it scans. */
final class ProgressCounter {
    private final Progress progress;
    private final long totalRows;
    private final AtomicLong done = new AtomicLong();
    /** Rows a scan thread counts on its own before it reports them. */
    static final int BATCH = 1024;

    ProgressCounter(Progress progress, long totalRows) {
        this.progress = progress;
        this.totalRows = totalRows;
    }

    /** {@code rows} more rows done by the calling thread. */
    void rowsDone(int rows) {
        if (progress == Progress.NONE || rows == 0) return;
        progress.update(done.addAndGet(rows), totalRows);
    }
}
