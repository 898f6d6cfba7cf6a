package dev.sparseprof.model;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/** NumPy {@code .npy} bytes for tests: magic, version, header length (u16 v1, u32 v2/v3), the dict padded to 64 bytes, the data. */
public final class NpyFixtures {
    private NpyFixtures() {}

    /** A version-1 file. */
    public static byte[] npy(String dict, byte[] data) {
        return npy(1, dict, data);
    }

    public static byte[] npy(int version, String dict, byte[] data) {
        byte[] text = dict.getBytes(StandardCharsets.UTF_8);
        int prefix = version == 1 ? 10 : 12;
        int total = (prefix + text.length + 1 + 63) / 64 * 64;
        int headerLength = total - prefix;
        ByteBuffer b = ByteBuffer.allocate(total + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) version, 0});
        if (version == 1) b.putShort((short) headerLength);
        else b.putInt(headerLength);
        b.put(text);
        for (int i = text.length; i < headerLength - 1; i++) b.put((byte) ' ');
        b.put((byte) '\n');
        b.put(data);
        return b.array();
    }
}
