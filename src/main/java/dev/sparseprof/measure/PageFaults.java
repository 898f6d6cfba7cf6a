package dev.sparseprof.measure;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * This process's page faults so far (minor plus major: fields 10 and 12 of Linux's
 * {@code /proc/self/stat}), read through one channel and one buffer so that a read allocates no
 * heap (it runs between timed runs, and heap it allocated would be faulted in during the next).
 * Where the file cannot be read (not Linux), {@link #count} is -1 and nothing is judged by it.
 *
 * <p>Why measure counts them: after the warm-up a kernel touches no page it has not touched
 * before, so page faults during its timed runs are the JVM's (a young generation growing into
 * fresh pages under whatever the run allocates), not the kernel's cost on its data. On the Zen 4 VM
 * each such fault cost 1.5-12 us, and a kernel that allocated 15 KB a call ran up to 3x slower
 * for seconds (docs/kernels.md, "Allocation-free row bodies").
 */
final class PageFaults implements AutoCloseable {
    /** A reader that knows nothing: {@link #count} is always -1. */
    static final PageFaults NONE = new PageFaults(null);

    private static final Path STAT = Path.of("/proc/self/stat");
    private static final int MINFLT_FIELD = 10;
    private static final int MAJFLT_FIELD = 12;

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(4096);

    private PageFaults(FileChannel channel) {
        this.channel = channel;
    }

    /** The reader of this process's faults, or {@link #NONE} where {@code /proc/self/stat} cannot be opened. */
    static PageFaults open() {
        try {
            return new PageFaults(FileChannel.open(STAT, StandardOpenOption.READ));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return NONE;
        }
    }

    /** Minor plus major page faults of this process so far, or -1 when unknown. */
    long count() {
        if (channel == null) return -1;
        buffer.clear();
        try {
            while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
                // the whole line, however the kernel hands it out
            }
        } catch (IOException e) {
            return -1;
        }
        return parse(buffer, buffer.position());
    }

    /**
     * Fields 10 and 12 summed, counted after the command name's closing parenthesis (the name may
     * hold spaces and parentheses), or -1 when the text does not have them.
     */
    static long parse(ByteBuffer text, int length) {
        int close = -1;
        for (int i = length - 1; i >= 0; i--) {
            if (text.get(i) == ')') {
                close = i;
                break;
            }
        }
        if (close < 0) return -1;
        int field = 2; // the command name is field 2; field 3 starts after ") "
        long minor = -1;
        long major = -1;
        long value = 0;
        boolean inNumber = false;
        for (int i = close + 1; i <= length; i++) {
            byte ch = i < length ? text.get(i) : (byte) ' ';
            if (ch == ' ' || ch == '\n') {
                if (inNumber) {
                    if (field == MINFLT_FIELD) minor = value;
                    if (field == MAJFLT_FIELD) major = value;
                    inNumber = false;
                }
                continue;
            }
            if (!inNumber) {
                field++;
                inNumber = true;
                value = 0;
            }
            if (ch >= '0' && ch <= '9') value = value * 10 + (ch - '0');
            if (field > MAJFLT_FIELD) break;
        }
        return minor < 0 || major < 0 ? -1 : minor + major;
    }

    @Override
    public void close() {
        if (channel == null) return;
        try {
            channel.close();
        } catch (IOException e) {
            // a /proc file: nothing to flush
        }
    }
}
