package dev.sparseprof.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes accesses as Dinero text: classic din ({@code <label> <hex address>}; sizes and roles
 * are dropped, Dinero assumes 4 bytes) or extended din ({@code <r|w|i|m|c|v> <hex address>
 * <hex size>}). Bytes are formatted by hand into a buffer; {@link #close()} flushes and closes
 * the stream.
 */
public final class DinTextWriter implements TraceSink {
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] EXTENDED_LABELS = {'r', 'w', 'i', 'm', 'c', 'v'};

    private final OutputStream out;
    private final boolean extended;
    private final byte[] buf = new byte[1 << 16];
    private int pos;

    public DinTextWriter(OutputStream out, boolean extended) {
        this.out = out;
        this.extended = extended;
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        if (pos > buf.length - 64) flush();
        int k = kind.ordinal();
        buf[pos++] = extended ? EXTENDED_LABELS[k] : (byte) ('0' + k);
        buf[pos++] = ' ';
        pos = hex(address, pos);
        if (extended) {
            buf[pos++] = ' ';
            pos = hex(sizeBytes & 0xffffffffL, pos);
        }
        buf[pos++] = '\n';
    }

    private int hex(long value, int at) {
        int digits = value == 0 ? 1 : (67 - Long.numberOfLeadingZeros(value)) / 4;
        for (int i = digits - 1; i >= 0; i--) buf[at++] = HEX[(int) (value >>> (4 * i)) & 0xf];
        return at;
    }

    private void flush() {
        try {
            out.write(buf, 0, pos);
            pos = 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        flush();
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
