package dev.sparseprof.model;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * A cursor over one protobuf message in a segment: reads field keys, varints, fixed-width numbers
 * and length-delimited spans, the few wire-format pieces an ONNX file needs (no protobuf library).
 *
 * <p>Every length is checked against the bytes left in the enclosing message before it is used, so
 * a lying length gives a {@link ModelFormatException} naming {@code source} and the offset, never an
 * out-of-bounds read or an allocation. Offsets are absolute in the segment. Messages nest at most
 * {@value #MAX_DEPTH} deep (an ONNX control-flow subgraph costs three levels: graph, node,
 * attribute), so the recursive parsers above meet a one-line fault, not a {@code StackOverflowError},
 * on a file of subgraphs inside subgraphs.
 */
final class ProtoReader {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int FIXED32 = 5;
    static final int MAX_DEPTH = 200;

    private final String source;
    private final MemorySegment bytes;
    private final long limit;
    private final int depth;
    private long pos;
    private int field;
    private int wireType;

    ProtoReader(String source, MemorySegment bytes, long start, long limit) {
        this(source, bytes, start, limit, 0);
    }

    private ProtoReader(String source, MemorySegment bytes, long start, long limit, int depth) {
        this.source = source;
        this.bytes = bytes;
        this.pos = start;
        this.limit = limit;
        this.depth = depth;
    }

    /** A reader for a whole segment (the top-level message). */
    static ProtoReader of(String source, MemorySegment bytes) {
        return new ProtoReader(source, bytes, 0, bytes.byteSize());
    }

    /** Advances to the next field's key; false at the end of the message. */
    boolean next() {
        if (pos >= limit) return false;
        long key = varint();
        field = (int) (key >>> 3);
        wireType = (int) (key & 7);
        if (field <= 0 || (key >>> 3) > 0x1fffffff) throw fault("bad field number " + (key >>> 3));
        return true;
    }

    int field() {
        return field;
    }

    int wireType() {
        return wireType;
    }

    long position() {
        return pos;
    }

    long varint() {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= limit) throw fault("truncated varint");
            byte b = bytes.get(ValueLayout.JAVA_BYTE, pos++);
            result |= (long) (b & 0x7f) << shift;
            if (b >= 0) return result;
        }
        throw fault("varint longer than 10 bytes");
    }

    int fixed32() {
        need(4);
        int v = bytes.get(LittleEndian.I32, pos);
        pos += 4;
        return v;
    }

    long fixed64() {
        need(8);
        long v = bytes.get(LittleEndian.I64, pos);
        pos += 8;
        return v;
    }

    /** Reads a length prefix and returns the absolute start of the span; the cursor moves past it. */
    long span() {
        long length = varint();
        if (length < 0 || length > limit - pos) {
            throw fault("field " + field + " claims " + length + " bytes, " + (limit - pos) + " left");
        }
        long start = pos;
        pos += length;
        return start;
    }

    /** The length-delimited field just read by {@link #span()}, as a nested message reader. */
    ProtoReader message() {
        if (depth >= MAX_DEPTH) throw fault("messages nested deeper than " + MAX_DEPTH + " (subgraphs inside subgraphs)");
        long start = span();
        return new ProtoReader(source, bytes, start, pos, depth + 1);
    }

    String string() {
        long start = span();
        long length = pos - start;
        if (length > Integer.MAX_VALUE - 8) throw fault("string of " + length + " bytes");
        byte[] b = bytes.asSlice(start, length).toArray(ValueLayout.JAVA_BYTE);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** Expects the current field to have this wire type. */
    void expect(int wire) {
        if (wireType != wire) throw fault("field " + field + " has wire type " + wireType + ", expected " + wire);
    }

    void skip() {
        switch (wireType) {
            case VARINT -> varint();
            case FIXED64 -> skipBytes(8);
            case LENGTH_DELIMITED -> span();
            case FIXED32 -> skipBytes(4);
            default -> throw fault("unsupported wire type " + wireType + " (groups are not used by ONNX)");
        }
    }

    private void skipBytes(int n) {
        need(n);
        pos += n;
    }

    private void need(int n) {
        if (limit - pos < n) throw fault("truncated: " + n + " bytes needed, " + (limit - pos) + " left");
    }

    ModelFormatException fault(String what) {
        return ModelFormatException.in(source, what + " at byte " + pos);
    }
}
