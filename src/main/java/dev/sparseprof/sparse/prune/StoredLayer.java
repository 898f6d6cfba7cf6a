package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.ByteSource;
import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.MemorySegment;

/**
 * One layer's weight matrix A ({@code rows x cols}, row-major) as a file stores it: little-endian
 * floats of the stored width, read chunk by chunk from {@code bytes} (a tensor of a model file read
 * through the file, {@code model.FileSources}, or a segment in memory). {@link StoredPruner} prunes
 * it without widening: a weight's magnitude order is the order of its stored bits without the sign,
 * for fp16, bf16 and fp32 alike, exactly as after decoding to float.
 */
public record StoredLayer(String name, int rows, int cols, Width width, ByteSource bytes) {
    /** The stored float: 16-bit IEEE half, bfloat16, or 32-bit IEEE single. */
    public enum Width {
        F16(2), BF16(2), F32(4);

        private final int bytes;

        Width(int bytes) {
            this.bytes = bytes;
        }

        public int bytes() {
            return bytes;
        }
    }

    public StoredLayer {
        if (name == null || width == null || bytes == null) throw new SparseprofException("stored layer needs a name, a width and bytes");
        if (rows <= 0 || cols <= 0 || (long) rows * cols * width.bytes() != bytes.byteSize()) {
            throw new SparseprofException("layer '" + name + "': " + bytes.byteSize() + " bytes do not make a " + rows + "x" + cols + " " + width + " matrix");
        }
    }

    /** The layer stored in {@code data}, copied out of it chunk by chunk. */
    public StoredLayer(String name, int rows, int cols, Width width, MemorySegment data) {
        this(name, rows, cols, width, data == null ? null : ByteSource.of(data));
    }

    public long elements() {
        return (long) rows * cols;
    }
}
