package dev.sparseprof.kernel;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;

/**
 * What a traced twin pushes its accesses through: a {@link TraceSink} and the {@link ArrayLayout}
 * that turns (array, element index) into byte addresses. Each thread has its own tracer; its
 * region starts {@code regionOffsetFloats} into the layout's scratch area (so that threads do not
 * share scratch addresses) and holds the carry row ({@code carryFloats}) then the kernel's scratch.
 */
public final class Tracer {
    private final ArrayLayout layout;
    private final TraceSink sink;
    private final long carryOffsetFloats;
    private final long scratchOffsetFloats;

    public Tracer(ArrayLayout layout, TraceSink sink, long regionOffsetFloats, int carryFloats) {
        this.layout = layout;
        this.sink = sink;
        this.carryOffsetFloats = regionOffsetFloats;
        this.scratchOffsetFloats = regionOffsetFloats + carryFloats;
    }

    public ArrayLayout layout() { return layout; }

    /** A read of {@code count} of A's values from value index {@code index}. */
    public void readValues(long index, int count) {
        sink.access(AccessKind.READ, layout.valueAddress(index), count * layout.valueBytes(), ArrayRole.VALUES);
    }

    /** A read of {@code count} int32 entries of an index array (column indices, row pointers, metadata). */
    public void readIndices(ArrayRole role, long index, int count) {
        sink.access(AccessKind.READ, layout.indexAddress(role, index), count * layout.indexBytes(), role);
    }

    /**
     * The two row-pointer reads that open compressed row (column, block row) {@code i}: its start
     * {@code pointers[i]} and its end {@code pointers[i + 1]}, one int32 read each, as the kernels load them.
     */
    public void readPointerPair(long i) {
        readIndices(ArrayRole.ROW_POINTERS, i, 1);
        readIndices(ArrayRole.ROW_POINTERS, i + 1, 1);
    }

    /** A read of {@code bytes} bytes of metadata from byte {@code offset} (N:M positions, bitmap words). */
    public void readMetadataBytes(long offset, int bytes) {
        sink.access(AccessKind.READ, layout.base(ArrayRole.METADATA) + offset, bytes, ArrayRole.METADATA);
    }

    /** A read of {@code count} floats of a dense array (A, B, C) from element {@code index}. */
    public void readFloats(ArrayRole role, long index, int count) {
        sink.access(AccessKind.READ, layout.floatAddress(role, index), count * Float.BYTES, role);
    }

    public void writeFloats(ArrayRole role, long index, int count) {
        sink.access(AccessKind.WRITE, layout.floatAddress(role, index), count * Float.BYTES, role);
    }

    /** A read or write of the carry row, which holds part of a C row. */
    public void readCarry(long index, int count) {
        sink.access(AccessKind.READ, layout.scratchAddress(carryOffsetFloats + index), count * Float.BYTES, ArrayRole.C_SCATTER);
    }

    public void writeCarry(long index, int count) {
        sink.access(AccessKind.WRITE, layout.scratchAddress(carryOffsetFloats + index), count * Float.BYTES, ArrayRole.C_SCATTER);
    }

    /** A scratch read, tagged with the role of the data it holds (packed B is still B). */
    public void readScratch(ArrayRole role, long index, int count) {
        sink.access(AccessKind.READ, layout.scratchAddress(scratchOffsetFloats + index), count * Float.BYTES, role);
    }

    public void writeScratch(ArrayRole role, long index, int count) {
        sink.access(AccessKind.WRITE, layout.scratchAddress(scratchOffsetFloats + index), count * Float.BYTES, role);
    }
}
