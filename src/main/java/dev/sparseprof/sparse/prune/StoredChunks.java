package dev.sparseprof.sparse.prune;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A stored layer read and written in chunks of whole rows (a multiple of {@code alignRows} rows,
 * about {@value #TARGET_ELEMENTS} weights, so a chunk stays in L2 while it is read, edited and
 * written): the layer's {@link dev.sparseprof.util.ByteSource} reads the chunk into the thread's
 * native buffer (from a model file: one positional read, no touch of the file's mapping), one bulk
 * copy moves it into a primitive array of the stored width, the edit works on the array, and one
 * bulk copy goes out through the sink. The buffers are the chunk's: the heap stays far below one
 * tensor, and the native buffer (one a thread, kept for its next chunk) is one chunk too.
 */
final class StoredChunks {
    static final int TARGET_ELEMENTS = 1 << 17;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Each thread's native landing buffer for chunk reads, grown to its largest chunk and reused. */
    private static final ThreadLocal<MemorySegment[]> LANDING = ThreadLocal.withInitial(() -> new MemorySegment[] {MemorySegment.NULL});

    private final StoredLayer layer;
    private final int rowsPerChunk;
    /** The chunk's stored bits: {@code halves} for 16-bit widths, {@code singles} for fp32 (the other is null). */
    final short[] halves;
    final int[] singles;

    StoredChunks(StoredLayer layer, int alignRows) {
        this.layer = layer;
        int align = Math.max(1, Math.min(alignRows, layer.rows()));
        int rows = Math.max(1, TARGET_ELEMENTS / layer.cols()) / align * align;
        this.rowsPerChunk = Math.min(layer.rows(), Math.max(align, rows));
        int size = rowsPerChunk * layer.cols();
        boolean half = layer.width().bytes() == 2;
        this.halves = half ? new short[size] : null;
        this.singles = half ? null : new int[size];
    }

    int count() {
        return (layer.rows() + rowsPerChunk - 1) / rowsPerChunk;
    }

    int rowsPerChunk() {
        return rowsPerChunk;
    }

    /** The first row of chunk {@code c}. */
    int firstRow(int c) {
        return c * rowsPerChunk;
    }

    /** Loads chunk {@code c} into the array; returns its element count. */
    int load(int c) {
        int first = firstRow(c);
        int n = Math.min(rowsPerChunk, layer.rows() - first) * layer.cols();
        long element = (long) first * layer.cols();
        long bytes = (long) n * layer.width().bytes();
        MemorySegment landing = landing(bytes);
        layer.bytes().read(element * layer.width().bytes(), landing);
        if (halves != null) MemorySegment.copy(landing, I16, 0, halves, 0, n);
        else MemorySegment.copy(landing, I32, 0, singles, 0, n);
        return n;
    }

    /** The first {@code bytes} of the calling thread's landing buffer (page-aligned, grown when short). */
    private static MemorySegment landing(long bytes) {
        MemorySegment[] held = LANDING.get();
        if (held[0].byteSize() < bytes) held[0] = Arena.ofAuto().allocate(Math.max(bytes, (long) TARGET_ELEMENTS * 4), 4096);
        return held[0].asSlice(0, bytes);
    }

    /** Writes the array's first {@code n} elements as chunk {@code c}'s bytes. */
    void store(int c, int n, StoredPruner.Sink sink) throws IOException {
        long offset = (long) firstRow(c) * layer.cols() * layer.width().bytes();
        MemorySegment bytes = halves != null ? MemorySegment.ofArray(halves) : MemorySegment.ofArray(singles);
        sink.write(offset, bytes.asSlice(0, (long) n * layer.width().bytes()));
    }
}
