package dev.sparseprof.model;

import dev.sparseprof.util.ByteSource;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A tensor's stored bytes as a {@link ByteSource}: a slice of a mapped model file registered with
 * {@link FileWindows} is read from the file with positional reads into the caller's buffer, never
 * touching the mapping; any other segment (a heap copy, a bundled resource, a mapping that reads
 * through its pages) is copied from itself.
 *
 * <p>Why: a stream over a whole checkpoint ({@code prune}: each chunk read, edited and written once)
 * through a fresh mapping pays for the first touch of every page of it in the process's page tables,
 * which on a VM with shadow or nested paging costs more than the kernel's copy of the same bytes
 * from its own mapping of the page cache into a small buffer that stays in the core's cache.
 * A file truncated since it was opened reads as a {@link ModelFormatException} naming it, where
 * the mapping would fault the process.
 */
public final class FileSources {
    private FileSources() {}

    /** The bytes of {@code data}: through its file where it is a slice of a registered mapping, else copied from it. */
    public static ByteSource of(MemorySegment data) {
        FileWindows windows = FileWindows.of(data);
        return windows == null ? ByteSource.of(data) : new FileSlice(windows, windows.fileOffset(data), data.byteSize());
    }

    /** Bytes {@code [start, start + length)} of the file behind {@code windows}. */
    private record FileSlice(FileWindows windows, long start, long length) implements ByteSource {
        @Override
        public long byteSize() {
            return length;
        }

        @Override
        public void read(long offset, MemorySegment target) {
            Objects.checkFromIndexSize(offset, target.byteSize(), length);
            windows.read(start + offset, target);
        }
    }
}
