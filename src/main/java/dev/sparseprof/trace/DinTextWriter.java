package dev.sparseprof.trace;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes accesses as Dinero text: classic din ({@code <label> <hex address>}; sizes and roles
 * are dropped, Dinero assumes 4 bytes) or extended din ({@code <r|w|i|m|c|v> <hex address>
 * <hex size>}). Bytes are formatted by hand into a buffer; {@link #close()} flushes and closes
 * the stream.
 */
public final class DinTextWriter implements TraceSink {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EXTENDED_LABELS = {'r', 'w', 'i', 'm', 'c', 'v'};

    private final ByteOutput out;
    private final boolean extended;

    public DinTextWriter(OutputStream out, boolean extended) {
        this.out = new ByteOutput(out);
        this.extended = extended;
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        out.ensure(64);
        byte[] buf = out.buf;
        int pos = out.pos;
        int k = kind.ordinal();
        buf[pos++] = extended ? EXTENDED_LABELS[k] : (byte) ('0' + k);
        buf[pos++] = ' ';
        pos = hex(buf, address, pos);
        if (extended) {
            buf[pos++] = ' ';
            pos = hex(buf, sizeBytes & 0xffffffffL, pos);
        }
        buf[pos++] = '\n';
        out.pos = pos;
    }

    private static int hex(byte[] buf, long value, int at) {
        int digits = value == 0 ? 1 : (67 - Long.numberOfLeadingZeros(value)) / 4;
        for (int i = digits - 1; i >= 0; i--) buf[at++] = HEX[(int) (value >>> (4 * i)) & 0xf];
        return at;
    }

    @Override
    public void close() {
        out.close();
    }
}
