package dev.sparseprof.trace;

import java.util.List;

/** Sends every access to each of several sinks in order; closing closes them all. */
public final class TeeSink implements TraceSink {
    private final TraceSink[] sinks;

    public TeeSink(TraceSink... sinks) {
        if (sinks.length == 0) throw new IllegalArgumentException("a tee needs at least one sink");
        this.sinks = sinks.clone();
    }

    public TeeSink(List<? extends TraceSink> sinks) {
        this(sinks.toArray(new TraceSink[0]));
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        for (TraceSink s : sinks) s.access(kind, address, sizeBytes, role);
    }

    @Override
    public void accessAll(TraceChunk chunk, int from, int to) {
        for (TraceSink s : sinks) s.accessAll(chunk, from, to);
    }

    @Override
    public void close() {
        for (TraceSink s : sinks) s.close();
    }
}
