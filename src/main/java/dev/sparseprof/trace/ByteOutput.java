package dev.sparseprof.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * The byte buffer in front of a trace writer's stream: writers format records straight into
 * {@link #buf} at {@link #pos}, calling {@link #ensure} first; {@link #close()} flushes and closes.
 */
final class ByteOutput {
    final byte[] buf = new byte[1 << 16];
    int pos;
    private final OutputStream out;

    ByteOutput(OutputStream out) {
        this.out = out;
    }

    /** Makes room for {@code bytes} more. */
    void ensure(int bytes) {
        if (pos > buf.length - bytes) flush();
    }

    void flush() {
        try {
            out.write(buf, 0, pos);
            pos = 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void close() {
        flush();
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
