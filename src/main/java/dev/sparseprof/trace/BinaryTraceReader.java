package dev.sparseprof.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/** Reads {@link BinaryTraceFormat} versions 1 and 2, checking every field; faults name the file and byte offset. */
public final class BinaryTraceReader extends StreamTraceReader {
    private final byte[] buf = new byte[1 << 16];
    private final ArrayRole[] roleTable;
    private final long[] lastAddress;
    private final boolean timestamped;
    private long time;
    private int pos;
    private int limit;
    private long offsetBase; // stream offset of buf[0]
    private int role = -1;
    private long records;
    private boolean ended;

    public BinaryTraceReader(InputStream in, String source, LongSupplier bytesConsumed) {
        super(in, source, bytesConsumed);
        for (int i = 0; i < BinaryTraceFormat.MAGIC.length; i++) {
            if (nextByte() != (BinaryTraceFormat.MAGIC[i] & 0xff)) throw bad("not a sparseprof binary trace (bad magic)");
        }
        int version = nextByte();
        if (version < BinaryTraceFormat.FIRST_VERSION || version > BinaryTraceFormat.VERSION) {
            throw bad("binary trace version " + version + " (this build reads versions " + BinaryTraceFormat.FIRST_VERSION + "-"
                    + BinaryTraceFormat.VERSION + ")");
        }
        int flags = version >= 2 ? nextByte() : 0;
        if (flags < 0) throw bad("truncated header");
        if ((flags & ~BinaryTraceFormat.TIMESTAMPED) != 0) throw bad("unknown header flags 0x" + Integer.toHexString(flags));
        timestamped = (flags & BinaryTraceFormat.TIMESTAMPED) != 0;
        int roles = nextByte();
        if (roles < 0) throw bad("truncated header");
        roleTable = new ArrayRole[roles];
        lastAddress = new long[roles];
        for (int i = 0; i < roles; i++) {
            int len = nextByte();
            if (len < 0) throw bad("truncated header");
            byte[] label = new byte[len];
            for (int j = 0; j < len; j++) {
                int b = nextByte();
                if (b < 0) throw bad("truncated header");
                label[j] = (byte) b;
            }
            roleTable[i] = roleFor(new String(label, StandardCharsets.US_ASCII));
        }
    }

    private static ArrayRole roleFor(String label) {
        for (ArrayRole r : AccessKinds.ROLES) if (r.label().equals(label)) return r;
        return ArrayRole.UNKNOWN;
    }

    @Override
    public int fill(TraceChunk chunk) {
        chunk.clear();
        while (!ended && !chunk.isFull()) {
            int tag = nextByte();
            if (tag < 0) throw bad("truncated (no end record)");
            if (tag == BinaryTraceFormat.END_TAG) {
                long count = varint();
                if (count != records) throw bad("end record says " + count + " records, file holds " + records);
                if (nextByte() >= 0) throw bad("bytes after the end record");
                ended = true;
                break;
            }
            int kind = tag & 7;
            if (kind > 5 || (tag & 0x80) != 0) throw bad("bad record tag 0x" + Integer.toHexString(tag));
            if ((tag & BinaryTraceFormat.ROLE_FOLLOWS) != 0) {
                role = nextByte();
                if (role < 0 || role >= roleTable.length) throw bad("role index " + role + " outside the header's " + roleTable.length);
            } else if (role < 0) {
                throw bad("first record has no role");
            }
            int code = (tag >>> 3) & 7;
            int size;
            if (code == BinaryTraceFormat.EXPLICIT_SIZE_CODE) {
                long s = varint();
                if (s < 1 || s > Integer.MAX_VALUE) throw bad("record size " + s);
                size = (int) s;
            } else {
                size = 1 << code;
            }
            long z = varint();
            long address = lastAddress[role] + ((z >>> 1) ^ -(z & 1));
            lastAddress[role] = address;
            if (timestamped) {
                long dt = varint();
                if (dt < 0 || time + dt < time) throw bad("timestamp delta " + Long.toUnsignedString(dt) + " out of range");
                time += dt;
            }
            records++;
            chunk.add(AccessKinds.BY_ORDINAL[kind], address, size, roleTable[role], time);
        }
        return chunk.size();
    }

    private long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = nextByte();
            if (b < 0) throw bad("truncated record");
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
        throw bad("varint longer than 10 bytes");
    }

    private int nextByte() {
        if (pos < limit) return buf[pos++] & 0xff;
        try {
            offsetBase += limit;
            pos = 0;
            limit = 0;
            int n;
            do n = in.read(buf, 0, buf.length); while (n == 0);
            if (n < 0) return -1;
            limit = n;
            return buf[pos++] & 0xff;
        } catch (IOException e) {
            throw new TraceFormatException(source + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private TraceFormatException bad(String fault) {
        return new TraceFormatException(source + ": byte " + (offsetBase + pos) + ": " + fault);
    }

    @Override
    public boolean timestamped() {
        return timestamped;
    }

    @Override
    long streamBytes() {
        return offsetBase + limit;
    }
}
