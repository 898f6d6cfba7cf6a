package dev.sparseprof.model;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** A minimal protobuf wire-format writer for tests that build ONNX files themselves. */
public final class ProtoWriter {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    public ProtoWriter varint(int field, long value) {
        key(field, 0);
        raw(value);
        return this;
    }

    public ProtoWriter fixed32(int field, int value) {
        key(field, 5);
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array());
        return this;
    }

    public ProtoWriter bytes(int field, byte[] value) {
        key(field, 2);
        raw(value.length);
        out.writeBytes(value);
        return this;
    }

    public ProtoWriter string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    public ProtoWriter message(int field, ProtoWriter value) {
        return bytes(field, value.toByteArray());
    }

    public ProtoWriter packedVarints(int field, long... values) {
        ProtoWriter p = new ProtoWriter();
        for (long v : values) p.raw(v);
        return bytes(field, p.toByteArray());
    }

    public ProtoWriter packedFloats(int field, float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) b.putFloat(v);
        return bytes(field, b.array());
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }

    private void key(int field, int wire) {
        raw(((long) field << 3) | wire);
    }

    private void raw(long v) {
        while ((v & ~0x7fL) != 0) {
            out.write((int) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    public static byte[] floatsLE(float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) b.putFloat(v);
        return b.array();
    }
}
