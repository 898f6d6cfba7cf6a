package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.Progress;
import java.util.concurrent.atomic.AtomicLong;

/** Rows done across scan threads, reported to a {@link Progress} every 1024 rows of a thread. */
final class ProgressCounter {
    private final Progress progress;
    private final long totalRows;
    private final AtomicLong done = new AtomicLong();
    private final ThreadLocal<int[]> pending = ThreadLocal.withInitial(() -> new int[1]);

    ProgressCounter(Progress progress, long totalRows) {
        this.progress = progress;
        this.totalRows = totalRows;
    }

    void rowDone() {
        if (progress == Progress.NONE) return;
        int[] p = pending.get();
        if (++p[0] == 1024) {
            progress.update(done.addAndGet(p[0]), totalRows);
            p[0] = 0;
        }
    }
}
