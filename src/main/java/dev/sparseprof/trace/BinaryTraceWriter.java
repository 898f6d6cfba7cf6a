package dev.sparseprof.trace;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes {@link BinaryTraceFormat} version 2; {@link #close()} writes the end record and closes the
 * stream. A timestamped writer stores each record's time: {@link #accessAt} gives it (never less
 * than the previous one), {@link #access} repeats the previous time, {@link #accessAll} takes the
 * chunk's.
 */
public final class BinaryTraceWriter implements TraceSink {
    private final ByteOutput out;
    private final byte[] buf;
    private final long[] lastAddress = new long[ArrayRole.COUNT];
    private int lastRole = -1;
    private final boolean timestamped;
    private long time;
    private long records;
    private boolean closed;

    public BinaryTraceWriter(OutputStream out) {
        this(out, false);
    }

    public BinaryTraceWriter(OutputStream out, boolean timestamped) {
        this.timestamped = timestamped;
        this.out = new ByteOutput(out);
        this.buf = this.out.buf;
        int pos = 0;
        for (byte b : BinaryTraceFormat.MAGIC) buf[pos++] = b;
        buf[pos++] = (byte) BinaryTraceFormat.VERSION;
        buf[pos++] = (byte) (timestamped ? BinaryTraceFormat.TIMESTAMPED : 0);
        buf[pos++] = (byte) ArrayRole.COUNT;
        for (ArrayRole r : AccessKinds.ROLES) {
            byte[] label = r.label().getBytes(StandardCharsets.US_ASCII);
            buf[pos++] = (byte) label.length;
            for (byte b : label) buf[pos++] = b;
        }
        this.out.pos = pos;
    }

    @Override
    public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        accessAt(time, kind, address, sizeBytes, role);
    }

    @Override
    public void accessAll(TraceChunk chunk, int from, int to) {
        for (int i = from; i < to; i++) accessAt(timestamped ? chunk.timestamp(i) : time, chunk.kind(i), chunk.address(i), chunk.sizeBytes(i), chunk.role(i));
    }

    /** One record at time {@code timestamp} (ignored by a writer without timestamps). */
    public void accessAt(long timestamp, AccessKind kind, long address, int sizeBytes, ArrayRole role) {
        if (timestamped && timestamp < time) {
            throw new IllegalArgumentException("timestamp " + timestamp + " before the previous record's " + time);
        }
        out.ensure(48);
        int r = role.ordinal();
        int code = BinaryTraceFormat.sizeCode(sizeBytes);
        int tag = kind.ordinal() | (code << 3) | (r != lastRole ? BinaryTraceFormat.ROLE_FOLLOWS : 0);
        buf[out.pos++] = (byte) tag;
        if (r != lastRole) {
            buf[out.pos++] = (byte) r;
            lastRole = r;
        }
        if (code == BinaryTraceFormat.EXPLICIT_SIZE_CODE) varint(sizeBytes & 0xffffffffL);
        long delta = address - lastAddress[r];
        lastAddress[r] = address;
        varint((delta << 1) ^ (delta >> 63));
        if (timestamped) {
            varint(timestamp - time);
            time = timestamp;
        }
        records++;
    }

    private void varint(long v) {
        int pos = out.pos;
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
        out.pos = pos;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        out.ensure(32);
        buf[out.pos++] = (byte) BinaryTraceFormat.END_TAG;
        varint(records);
        out.close();
    }
}
