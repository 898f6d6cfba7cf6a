package dev.sparseprof.model;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * How a mapped model file's pages come into the process, through Linux's {@code madvise}. Advisory
 * only: where the call is missing or refused (another OS, no native access), nothing is done and
 * the scan faults pages in as usual. The ways, chosen by the system property
 * {@code sparseprof.pages} ({@value #READ} by default):
 * <ul>
 *   <li>{@value #READ}: {@value #HUGE}'s advice, and the scan of fp16, bf16 and fp32 rows reads
 *       the file through {@link FileWindows} instead of touching the mapping.</li>
 *   <li>{@value #HUGE}: {@code MADV_HUGEPAGE} (14) over each whole mapping, once. The page cache
 *       keeps large files partly in 2 MiB folios (written or read ahead that way); with the advice,
 *       the kernel maps each such folio with one PMD entry instead of 512 PTEs, and a page not
 *       cached is read ahead as a 2 MiB folio. Pages come in by ordinary faults, which map a whole
 *       cached folio (or 16 pages around) at a time.</li>
 *   <li>{@value #POPULATE}: as a scan enters each {@link #CHUNK_BYTES} chunk,
 *       {@code MADV_POPULATE_READ} (22) installs the chunk's page-table entries in one call, and the
 *       next {@value #READAHEAD_CHUNKS} chunks get {@code MADV_WILLNEED}.</li>
 * </ul>
 * Measured on the Zen 4 VM (docs/models.md, "Scan speed"): on a warm 13.5 GB checkpoint,
 * {@value #HUGE} costs about 35% less kernel time than {@value #POPULATE}, whose
 * {@code WILLNEED} walks over cached pages and per-page population cost more than the faults
 * they replace on this kernel (6.18, with large folios); {@code none} does neither.
 */
final class PagePopulate {
    static final String READ = "read";
    static final String HUGE = "huge";
    static final String POPULATE = "populate";
    /** Bytes populated per call ({@value #POPULATE} only). */
    static final long CHUNK_BYTES = 4L << 20;
    private static final int MADV_WILLNEED = 3;
    private static final int MADV_HUGEPAGE = 14;
    private static final int MADV_POPULATE_READ = 22;
    /** Chunks past the populated one handed to the kernel's asynchronous readahead ({@value #POPULATE} only). */
    static final int READAHEAD_CHUNKS = 4;
    private static final long PAGE = 4096;
    private static final String MODE = System.getProperty("sparseprof.pages", READ).toLowerCase(Locale.ROOT);
    private static volatile boolean populating = MODE.equals(POPULATE);
    private static final MethodHandle MADVISE = lookup();

    private PagePopulate() {}

    private static MethodHandle lookup() {
        try {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) return null;
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("madvise").map(f -> linker.downcallHandle(f,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT))).orElse(null);
        } catch (RuntimeException | Error e) {
            return null;
        }
    }

    /** Whether scans read rows of mapped files through {@link FileWindows}. */
    static boolean readsFiles() {
        return MODE.equals(READ);
    }

    /** Called once for each whole file just mapped. */
    static void mapped(MemorySegment data) {
        if (MADVISE == null || !(MODE.equals(HUGE) || MODE.equals(READ)) || !data.isNative() || data.byteSize() == 0) return;
        long aligned = data.address() & -PAGE;
        advise(aligned, data.address() + data.byteSize() - aligned, MADV_HUGEPAGE);
    }

    /**
     * Called as a scan reaches bytes {@code [from, from + length)} of {@code data}: in
     * {@value #POPULATE} mode, when that range enters a new chunk of the segment, populates that
     * chunk. Each chunk is populated by whichever thread enters it first in its own row order; the
     * first chunk of a thread's range faults in as usual.
     */
    static void ahead(MemorySegment data, long from, long length) {
        if (!populating || MADVISE == null || !data.isNative() || from == 0) return;
        long chunk = (from + length - 1) / CHUNK_BYTES;
        if (chunk == (from - 1) / CHUNK_BYTES) return;
        long start = chunk * CHUNK_BYTES;
        long end = Math.min(data.byteSize(), start + CHUNK_BYTES);
        if (start >= end) return;
        long aligned = (data.address() + start) & -PAGE;
        long ahead = Math.min(data.byteSize(), end + READAHEAD_CHUNKS * CHUNK_BYTES);
        if (ahead > end) {
            long aheadStart = (data.address() + end) & -PAGE;
            advise(aheadStart, data.address() + ahead - aheadStart, MADV_WILLNEED);
        }
        if (!advise(aligned, data.address() + end - aligned, MADV_POPULATE_READ)) populating = false;
    }

    private static boolean advise(long address, long length, int advice) {
        try {
            return (int) MADVISE.invokeExact(address, length, advice) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
