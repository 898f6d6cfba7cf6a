package dev.sparseprof.util;

import java.lang.foreign.MemorySegment;

/**
 * A run of stored bytes (a tensor in a model file, a segment in memory) read by position into
 * memory the caller owns, so that a stream over a large tensor holds one chunk at a time and
 * chooses how the bytes arrive: copied from a segment, or read from the file.
 *
 * <p>Contract: {@link #read} fills all of {@code target} with the bytes
 * {@code [offset, offset + target.byteSize())} of the source, or throws: a source whose file ends
 * early throws a {@link SparseprofException} naming the file, never fills part of {@code target}
 * silently. {@code offset} and the length must lie within {@link #byteSize()}
 * ({@link IndexOutOfBoundsException} otherwise). Reads of different targets may run on several
 * threads at once. A native {@code target} is read into directly; others may be staged.
 */
public interface ByteSource {
    /** The source's length in bytes. */
    long byteSize();

    /** Reads {@code target.byteSize()} bytes from {@code offset} into {@code target}. */
    void read(long offset, MemorySegment target);

    /** The bytes of {@code data}, copied out of it (a mapped segment: through its mapping). */
    static ByteSource of(MemorySegment data) {
        return new ByteSource() {
            @Override
            public long byteSize() {
                return data.byteSize();
            }

            @Override
            public void read(long offset, MemorySegment target) {
                MemorySegment.copy(data, offset, target, 0, target.byteSize());
            }
        };
    }
}
