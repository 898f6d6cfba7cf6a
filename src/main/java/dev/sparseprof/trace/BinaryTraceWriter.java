package dev.sparseprof.trace;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Writes {@link BinaryTraceFormat} version 1; {@link #close()} writes the end record and closes the stream. */
public final class BinaryTraceWriter implements TraceSink {
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private final long[] lastAddress = new long[ArrayRole.COUNT];
    private int pos;
    private int lastRole = -1;
    private long records;
    private boolean closed;

    public BinaryTraceWriter(OutputStream out) {
        this.out = out;
        for (byte b : BinaryTraceFormat.MAGIC) buf[pos++] = b;
        buf[pos++] = (byte) BinaryTraceFormat.VERSION;
        buf[pos++] = (byte) ArrayRole.COUNT;
        for (ArrayRole r : AccessKinds.ROLES) {
            byte[] label = r.label().getBytes(StandardCharsets.US_ASCII);
            buf[pos++] = (byte) label.length;
            for (byte b : label) buf[pos++] = b;
        }
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        if (pos > buf.length - 32) flush();
        int r = role.ordinal();
        int code = BinaryTraceFormat.sizeCode(sizeBytes);
        int tag = kind.ordinal() | (code << 3) | (r != lastRole ? BinaryTraceFormat.ROLE_FOLLOWS : 0);
        buf[pos++] = (byte) tag;
        if (r != lastRole) {
            buf[pos++] = (byte) r;
            lastRole = r;
        }
        if (code == BinaryTraceFormat.EXPLICIT_SIZE_CODE) varint(sizeBytes & 0xffffffffL);
        long delta = address - lastAddress[r];
        lastAddress[r] = address;
        varint((delta << 1) ^ (delta >> 63));
        records++;
    }

    private void varint(long v) {
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
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
        if (closed) return;
        closed = true;
        if (pos > buf.length - 32) flush();
        buf[pos++] = (byte) BinaryTraceFormat.END_TAG;
        varint(records);
        flush();
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
