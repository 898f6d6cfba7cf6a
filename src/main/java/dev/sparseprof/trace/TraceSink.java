package dev.sparseprof.trace;

/**
 * Where a kernel's memory accesses go, one call per access.
 *
 * <p>Contract: implementations allocate nothing per access (kernels push tens of millions of them)
 * and may assume calls come from one thread; a multi-threaded kernel gives each thread its own
 * sink. {@code address} is a byte address in the kernel's simulated address space,
 * {@code sizeBytes} at least 1. {@link #close()} ends the stream: file sinks flush, a cache
 * hierarchy writes back its dirty lines. A cache hierarchy is itself a sink.
 */
public interface TraceSink extends AutoCloseable {
    void access(AccessKind kind, long address, int sizeBytes, ArrayRole role);

    /**
     * Takes records {@code [from, to)} of {@code chunk}, as {@link #access} would one by one (the
     * default does exactly that). Readers replay through this, so a sink that overrides it with its
     * own loop pays one virtual call per chunk instead of one per access.
     */
    default void accessAll(TraceChunk chunk, int from, int to) {
        chunk.pushTo(this, from, to);
    }

    @Override
    default void close() {}
}
