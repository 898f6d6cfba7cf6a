package dev.sparseprof.model;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A mapped model file's bytes read through the file instead of the mapping: each thread reads (with
 * positional {@code read()}) up to {@value #WINDOW_BYTES} bytes of whole rows into a window of its
 * own, reused from row to row, and scans them there. The scan then never touches the mapping's
 * pages, so each process does not map 13 GB of page cache into its address space a page table
 * entry at a time; the kernel copies from its own mapping of the cache, as {@code cat} does, and
 * reads ahead when the file is not cached.
 *
 * <p>Why: on the Zen 5 VM (a PVM guest, shadow page tables) the first touch of each page of a fresh
 * mapping costs the process far more than the page's fault: one bitmap pass over a 13.5 GB
 * checkpoint on two threads took 0.75-0.77 s through a fresh mapping, 0.43-0.44 s through a mapping
 * already touched, 0.48-0.50 s through windows (docs/models.md, "Scan speed"). Where the copy costs
 * more than the mapping saves (a machine whose fresh mappings are cheap), the difference is the
 * copy of 2 MiB windows that stay in the core's cache.
 *
 * <p>Contract: {@link #of} gives the windows of the mapping that holds a segment (null when none
 * was registered: the caller reads the segment itself); {@link #window} returns the calling
 * thread's window holding the asked bytes, valid until that thread's next call; {@link #read}
 * reads any of the file's bytes into the caller's own segment ({@link FileSources}: a tensor as a
 * {@link dev.sparseprof.util.ByteSource}), and {@link #copyTo} copies a run of them into another
 * file inside the kernel. The file's channel is opened on first use and closed
 * with the mapping's arena; after that, {@link #window} and {@link #read} throw
 * {@link IllegalStateException}, as reading a closed mapping does.
 */
final class FileWindows {
    /**
     * Bytes read per window, whole rows; longer rows are read through the mapping. On the Zen 5 VM
     * windows of 256 KiB to 2 MiB gave the same profile time (1.52-1.74 s, four rounds, 10:38 UTC)
     * and 4 MiB a slower one (1.73-1.85 s, half again the kernel time: the copy's target outgrows the cache).
     */
    static final long WINDOW_BYTES = 2L << 20;
    /** The most bytes one {@link #read} call asks of the kernel (a {@link ByteBuffer} holds under 2 GiB). */
    static final int READ_BYTES = 1 << 30;
    private static final List<FileWindows> MAPPED = new CopyOnWriteArrayList<>();
    private static final ThreadLocal<Window> WINDOWS = ThreadLocal.withInitial(Window::new);
    private final Path file;
    private final MemorySegment mapping;
    private volatile FileChannel channel;
    private volatile boolean closed;

    /** One thread's window: file bytes {@code [start, end)} of {@code owner} at the front of {@code bytes}. */
    static final class Window {
        MemorySegment bytes = MemorySegment.NULL;
        private FileWindows owner;
        long start;
        private long end;
    }

    private FileWindows(Path file, MemorySegment mapping) {
        this.file = file;
        this.mapping = mapping;
    }

    /** Registers {@code mapping}, the whole of {@code file} mapped in {@code arena}; false where its closing cannot be hooked. */
    static boolean register(Path file, MemorySegment mapping, Arena arena) {
        FileWindows w = new FileWindows(file, mapping);
        try {
            MemorySegment.NULL.reinterpret(0, arena, ignored -> w.close());
        } catch (RuntimeException e) {
            return false;
        }
        MAPPED.add(w);
        return true;
    }

    /** The windows of the registered mapping that holds {@code data}, or null. */
    static FileWindows of(MemorySegment data) {
        if (!data.isNative()) return null;
        long at = data.address();
        for (FileWindows w : MAPPED) {
            if (at >= w.mapping.address() && at + data.byteSize() <= w.mapping.address() + w.mapping.byteSize()) return w;
        }
        return null;
    }

    /** Where {@code data} (a slice of this mapping) starts in the file. */
    long fileOffset(MemorySegment data) {
        return data.address() - mapping.address();
    }

    /**
     * The calling thread's window holding file bytes {@code [from, from + rowBytes)}: when its
     * window does not, it reads whole rows of {@code rowBytes} from {@code from} up to
     * {@code limit} (the end of the rows' tensor), at most {@value #WINDOW_BYTES} bytes
     * ({@code rowBytes} from 1 to that).
     */
    Window window(long from, long rowBytes, long limit) {
        Window w = WINDOWS.get();
        if (w.owner == this && from >= w.start && from + rowBytes <= w.end && !closed) return w;
        long length = Math.min(limit - from, WINDOW_BYTES / rowBytes * rowBytes);
        if (w.bytes == MemorySegment.NULL) w.bytes = Arena.ofAuto().allocate(WINDOW_BYTES, 4096);
        w.owner = null;
        read(from, w.bytes.asSlice(0, length));
        w.owner = this;
        w.start = from;
        w.end = from + length;
        return w;
    }

    /**
     * Reads file bytes {@code [from, from + target.byteSize())} into {@code target} with positional
     * reads (a native target directly, in calls of at most {@value #READ_BYTES} bytes); a file that
     * ends before them (truncated since it was opened) is a {@link ModelFormatException} naming it.
     * Any thread, any time until the mapping's arena closes.
     */
    void read(long from, MemorySegment target) {
        try {
            FileChannel ch = channel();
            for (long done = 0; done < target.byteSize(); ) {
                ByteBuffer b = target.asSlice(done, Math.min(READ_BYTES, target.byteSize() - done)).asByteBuffer();
                while (b.hasRemaining()) {
                    if (ch.read(b, from + done + b.position()) < 0) throw ModelFormatException.in(file, "file ends before its tensors do");
                }
                done += b.limit();
            }
        } catch (IOException e) {
            throw ModelFormatException.in(file, "cannot read (" + e.getMessage() + ")");
        }
    }

    /**
     * Copies file bytes {@code [from, from + count)} to {@code target} at {@code at} inside the
     * kernel ({@link FileChannel#transferFrom}: {@code copy_file_range} on Linux, as {@code cp}
     * does), never through the mapping or a buffer of the process. The source is a channel of its
     * own (the copy moves its position), so copies on several threads do not wait for each other;
     * {@code target}'s position is left alone. A file that ends before {@code from + count} is a
     * {@link ModelFormatException} naming it.
     */
    void copyTo(long from, long count, FileChannel target, long at) throws IOException {
        if (closed) throw new IllegalStateException(file + ": model already closed");
        try (FileChannel source = FileChannel.open(file, StandardOpenOption.READ)) {
            source.position(from);
            for (long done = 0; done < count; ) {
                long n = target.transferFrom(source, at + done, count - done);
                if (n <= 0) throw ModelFormatException.in(file, "file ends before its tensors do");
                done += n;
            }
        }
    }

    private FileChannel channel() throws IOException {
        FileChannel ch = channel;
        if (ch != null) return ch;
        synchronized (this) {
            if (closed) throw new IllegalStateException(file + ": model already closed");
            if (channel == null) channel = FileChannel.open(file, StandardOpenOption.READ);
            return channel;
        }
    }

    private synchronized void close() {
        closed = true;
        MAPPED.remove(this);
        try {
            if (channel != null) channel.close();
        } catch (IOException ignored) {
            // read-only: nothing to lose
        }
        channel = null;
    }
}
