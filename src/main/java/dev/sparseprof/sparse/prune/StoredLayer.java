package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.SparseprofException;
import java.lang.foreign.MemorySegment;

/**
 * One layer's weight matrix A ({@code rows x cols}, row-major) as a file stores it: little-endian
 * floats of the stored width in {@code data} (often a mapped slice of the file). {@link StoredPruner}
 * prunes it without widening: a weight's magnitude order is the order of its stored bits without
 * the sign, for fp16, bf16 and fp32 alike, exactly as after decoding to float.
 */
public record StoredLayer(String name, int rows, int cols, Width width, MemorySegment data) {
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
        if (name == null || width == null || data == null) throw new SparseprofException("stored layer needs a name, a width and data");
        if (rows <= 0 || cols <= 0 || (long) rows * cols * width.bytes() != data.byteSize()) {
            throw new SparseprofException("layer '" + name + "': " + data.byteSize() + " bytes do not make a " + rows + "x" + cols + " " + width + " matrix");
        }
    }

    public long elements() {
        return (long) rows * cols;
    }
}
