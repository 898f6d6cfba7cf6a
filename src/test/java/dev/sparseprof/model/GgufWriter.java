package dev.sparseprof.model;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A small GGUF writer for test fixtures, written from the GGUF specification (llama.cpp's
 * docs/gguf.md): header, metadata, tensor infos, aligned data. Fields may be set to lie on purpose.
 */
final class GgufWriter {
    record TensorData(String name, long[] dims, int type, byte[] data) {}

    private final ByteArrayOutputStream kv = new ByteArrayOutputStream();
    private int kvCount;
    private final List<TensorData> tensors = new ArrayList<>();
    int version = 3;
    int alignment = 32;
    Long tensorCountOverride;
    Long kvCountOverride;
    /** When set, every offset written is this much larger than the real one. */
    long offsetShift;

    GgufWriter string(String key, String value) {
        key(key, 8);
        str(kv, value);
        kvCount++;
        return this;
    }

    GgufWriter u32(String key, int value) {
        key(key, 4);
        kv.writeBytes(le(4).putInt(value).array());
        kvCount++;
        return this;
    }

    GgufWriter f32(String key, float value) {
        key(key, 6);
        kv.writeBytes(le(4).putFloat(value).array());
        kvCount++;
        return this;
    }

    /** An array of strings (like tokenizer.ggml.tokens). */
    GgufWriter strings(String key, String... values) {
        key(key, 9);
        kv.writeBytes(le(4).putInt(8).array());
        kv.writeBytes(le(8).putLong(values.length).array());
        for (String v : values) str(kv, v);
        kvCount++;
        return this;
    }

    GgufWriter tensor(String name, long[] dims, int type, byte[] data) {
        tensors.add(new TensorData(name, dims, type, data));
        return this;
    }

    private void key(String key, int type) {
        str(kv, key);
        kv.writeBytes(le(4).putInt(type).array());
    }

    private static void str(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(le(8).putLong(b.length).array());
        out.writeBytes(b);
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'G', 'G', 'U', 'F'});
        out.writeBytes(le(4).putInt(version).array());
        out.writeBytes(le(8).putLong(tensorCountOverride != null ? tensorCountOverride : tensors.size()).array());
        out.writeBytes(le(8).putLong(kvCountOverride != null ? kvCountOverride : kvCount).array());
        out.writeBytes(kv.toByteArray());
        long offset = 0;
        List<Long> offsets = new ArrayList<>();
        for (TensorData t : tensors) {
            str(out, t.name());
            out.writeBytes(le(4).putInt(t.dims().length).array());
            for (long d : t.dims()) out.writeBytes(le(8).putLong(d).array());
            out.writeBytes(le(4).putInt(t.type()).array());
            out.writeBytes(le(8).putLong(offset + offsetShift).array());
            offsets.add(offset);
            offset = (offset + t.data().length + alignment - 1) / alignment * alignment;
        }
        while (out.size() % alignment != 0) out.write(0);
        for (int i = 0; i < tensors.size(); i++) {
            byte[] d = tensors.get(i).data();
            out.writeBytes(d);
            if (i + 1 < tensors.size()) while ((out.size()) % alignment != 0) out.write(0);
        }
        return out.toByteArray();
    }

    static byte[] f32(float... v) {
        ByteBuffer b = le(4 * v.length);
        for (float f : v) b.putFloat(f);
        return b.array();
    }

    static byte[] f16(float... v) {
        ByteBuffer b = le(2 * v.length);
        for (float f : v) b.putShort(Float.floatToFloat16(f));
        return b.array();
    }

    /** Q8_0 blocks: per 32 values one fp16 scale then 32 int8 quants. */
    static byte[] q8(float[] scales, byte[] quants) {
        ByteBuffer b = le(scales.length * 34);
        for (int k = 0; k < scales.length; k++) {
            b.putShort(Float.floatToFloat16(scales[k]));
            b.put(quants, k * 32, 32);
        }
        return b.array();
    }

    /** Q4_0 blocks: per 32 values one fp16 scale then 16 bytes, element j in the low nibble of byte j, j+16 in the high one. */
    static byte[] q4(float[] scales, int[] nibbles) {
        ByteBuffer b = le(scales.length * 18);
        for (int k = 0; k < scales.length; k++) {
            b.putShort(Float.floatToFloat16(scales[k]));
            for (int j = 0; j < 16; j++) b.put((byte) (nibbles[k * 32 + j] | nibbles[k * 32 + j + 16] << 4));
        }
        return b.array();
    }
}
