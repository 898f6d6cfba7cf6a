package dev.sparseprof.trace;

import dev.sparseprof.util.Progress;

/**
 * A source of trace records read in batches.
 *
 * <p>Contract: {@link #fill(TraceChunk)} clears the chunk, appends up to its capacity and returns
 * the number appended; 0 means the trace is over (and stays over). Readers stream: memory is
 * bounded by the chunk and the reader's buffer, never by the trace length. A malformed record
 * throws {@link TraceFormatException} naming the file and line. {@link #bytesConsumed()} counts
 * the bytes read from the underlying file (compressed bytes for gzip), for progress against the
 * file size.
 */
public interface TraceReader extends AutoCloseable {
    int fill(TraceChunk chunk);

    long bytesConsumed();

    /** True when every record carries its time ({@link TraceChunk#timestamp}), non-decreasing through the trace. */
    default boolean timestamped() {
        return false;
    }

    @Override
    void close();

    /** Streams the whole trace into {@code sink}; returns the number of records. Does not close the sink. */
    default long pushAll(TraceSink sink, Progress progress, long totalBytes) {
        TraceChunk chunk = new TraceChunk();
        long records = 0;
        int n;
        while ((n = fill(chunk)) > 0) {
            sink.accessAll(chunk, 0, n);
            records += n;
            progress.update(bytesConsumed(), totalBytes);
        }
        progress.finish();
        return records;
    }

    default long pushAll(TraceSink sink) {
        return pushAll(sink, Progress.NONE, -1);
    }
}
