package dev.sparseprof.trace;

import java.io.InputStream;
import java.util.function.LongSupplier;

/** What the file readers share: the stream, the name for errors, and the byte count for progress. */
abstract class StreamTraceReader implements TraceReader {
    final InputStream in;
    final String source;
    private final LongSupplier fileBytes;

    /** @param fileBytes counts the file's bytes (for gzip, the compressed ones); null: {@link #streamBytes()} */
    StreamTraceReader(InputStream in, String source, LongSupplier fileBytes) {
        this.in = in;
        this.source = source;
        this.fileBytes = fileBytes;
    }

    /** The bytes this reader has taken from {@link #in}. */
    abstract long streamBytes();

    @Override
    public final long bytesConsumed() {
        return fileBytes != null ? fileBytes.getAsLong() : streamBytes();
    }

    @Override
    public final void close() {
        TraceFiles.closeQuietly(in);
    }
}
