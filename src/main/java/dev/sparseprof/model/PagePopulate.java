package dev.sparseprof.model;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Maps a file's pages into the process ahead of a scan with Linux's
 * {@code madvise(MADV_POPULATE_READ)} (Linux 5.14+, value 22 in {@code <linux/mman.h>}): one system
 * call installs the page-table entries of a whole chunk (reading it from disk when it is not
 * cached), where touching a fresh mapping takes one page fault per 16 pages; the next
 * {@value #READAHEAD_CHUNKS} chunks get {@code MADV_WILLNEED}, the kernel's asynchronous readahead,
 * so that a file not in the page cache is read while the current chunk is scanned. Measured on the build
 * VM (docs/models.md, "Scan speed"): about half the first-touch cost of a cached file. Advisory
 * only: where the call is missing or refused (another OS, an old kernel, no native access), it is
 * switched off and the scan faults pages in as before.
 */
final class PagePopulate {
    /** Bytes populated per call. */
    static final long CHUNK_BYTES = 4L << 20;
    private static final int MADV_POPULATE_READ = 22;
    private static final int MADV_WILLNEED = 3;
    /** Chunks past the populated one handed to the kernel's asynchronous readahead (matters when the file is not cached). */
    static final int READAHEAD_CHUNKS = 4;
    private static final long PAGE = 4096;
    private static volatile boolean enabled = true;
    private static final MethodHandle MADVISE = lookup();

    private PagePopulate() {}

    private static MethodHandle lookup() {
        try {
            if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) return null;
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("madvise").map(f -> linker.downcallHandle(f,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT))).orElse(null);
        } catch (RuntimeException | Error e) {
            return null;
        }
    }

    /**
     * Called as a scan reaches bytes {@code [from, from + length)} of {@code data}: when that range
     * enters a new {@link #CHUNK_BYTES} chunk of the segment, populates that chunk. Each chunk is
     * populated by whichever thread enters it first in its own row order; the first chunk of a
     * thread's range faults in as usual.
     */
    static void ahead(MemorySegment data, long from, long length) {
        if (MADVISE == null || !enabled || !data.isNative() || from == 0) return;
        long chunk = (from + length - 1) / CHUNK_BYTES;
        if (chunk == (from - 1) / CHUNK_BYTES) return;
        long start = chunk * CHUNK_BYTES;
        long end = Math.min(data.byteSize(), start + CHUNK_BYTES);
        if (start >= end) return;
        long address = data.address() + start;
        long aligned = address & -PAGE;
        long ahead = Math.min(data.byteSize(), end + READAHEAD_CHUNKS * CHUNK_BYTES);
        try {
            if (ahead > end) {
                int ignored = (int) MADVISE.invokeExact((data.address() + end) & -PAGE, data.address() + ahead - ((data.address() + end) & -PAGE), MADV_WILLNEED);
            }
            int rc = (int) MADVISE.invokeExact(aligned, data.address() + end - aligned, MADV_POPULATE_READ);
            if (rc != 0) enabled = false;
        } catch (Throwable t) {
            enabled = false;
        }
    }
}
