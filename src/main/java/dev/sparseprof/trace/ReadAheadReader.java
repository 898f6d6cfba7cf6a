package dev.sparseprof.trace;

import dev.sparseprof.util.Progress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A {@link TraceReader} that reads (and parses) its inner reader on a thread of its own, a few
 * chunks ahead, so that parsing a text trace overlaps the simulation that consumes it instead of
 * adding to it. Records come out in the inner reader's order, unchanged; a fault of the inner
 * reader (a {@link TraceFormatException} naming file and line) is thrown by the {@link #fill} that
 * reaches it, after every record before it. Memory: {@value #DEPTH} chunks.
 */
public final class ReadAheadReader implements TraceReader {
    private static final int DEPTH = 4;
    private static final TraceChunk END = new TraceChunk(1);

    private final TraceReader inner;
    private final BlockingQueue<TraceChunk> full = new ArrayBlockingQueue<>(DEPTH + 1);
    private final BlockingQueue<TraceChunk> empty = new ArrayBlockingQueue<>(DEPTH);
    private final Thread thread;
    private volatile RuntimeException failure;
    private volatile long bytesConsumed;
    private boolean over;

    public ReadAheadReader(TraceReader inner) {
        this.inner = inner;
        for (int i = 0; i < DEPTH; i++) empty.add(new TraceChunk());
        thread = new Thread(this::readAhead, "trace-read-ahead");
        thread.setDaemon(true);
        thread.start();
    }

    private void readAhead() {
        try {
            while (true) {
                TraceChunk c = empty.take();
                int n;
                try {
                    n = inner.fill(c);
                } catch (RuntimeException e) {
                    failure = e;
                    n = 0;
                }
                bytesConsumed = inner.bytesConsumed();
                if (n == 0) {
                    full.put(END);
                    return;
                }
                full.put(c);
            }
        } catch (InterruptedException e) {
            // closed early: nobody reads on
        }
    }

    @Override
    public int fill(TraceChunk chunk) {
        chunk.clear();
        TraceChunk c = nextFull();
        if (c == null) return 0;
        chunk.copyFrom(c);
        empty.add(c);
        return chunk.size();
    }

    /** As {@link TraceReader#pushAll}, but each chunk goes to the sink from the queue itself, without the copy {@link #fill} makes. */
    @Override
    public long pushAll(TraceSink sink, Progress progress, long totalBytes) {
        long records = 0;
        TraceChunk c;
        while ((c = nextFull()) != null) {
            int n = c.size();
            sink.accessAll(c, 0, n);
            records += n;
            empty.add(c);
            progress.update(bytesConsumed(), totalBytes);
        }
        progress.finish();
        return records;
    }

    /** The next chunk the thread read, or null at the end (after throwing the inner reader's fault, if any). */
    private TraceChunk nextFull() {
        if (over) return null;
        TraceChunk c;
        try {
            c = full.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading a trace", e);
        }
        if (c != END) return c;
        over = true;
        if (failure != null) throw failure;
        return null;
    }

    @Override
    public boolean timestamped() {
        return inner.timestamped();
    }

    @Override
    public long bytesConsumed() {
        return bytesConsumed;
    }

    /** Stops the read-ahead thread, then closes the inner reader. */
    @Override
    public void close() {
        boolean interrupted = stop(thread);
        inner.close();
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** Interrupts a read-ahead thread and waits for it to end; true if the caller was interrupted meanwhile (to restore). */
    static boolean stop(Thread t) {
        t.interrupt();
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
