package dev.sparseprof.model;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes torch.save-format files for tests, from the public formats (no torch): a pickle builder
 * that emits the opcodes torch's protocol-2 pickler does, and a zip of stored entries under one top
 * folder ({@code archive/data.pkl}, {@code archive/data/N}, {@code archive/version},
 * {@code archive/byteorder}).
 */
public final class TorchFixtures {
    private TorchFixtures() {}

    /** A protocol-2 pickle, opcode by opcode. */
    public static final class Pickle {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private int memo;

        public Pickle() {
            op(0x80).op(2);
        }

        public Pickle op(int b) {
            out.write(b);
            return this;
        }

        public Pickle raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        public Pickle global(String module, String name) {
            op('c').raw((module + "\n" + name + "\n").getBytes(StandardCharsets.US_ASCII));
            return put();
        }

        public Pickle stackGlobal(String module, String name) {
            return str(module).str(name).op(0x93);
        }

        public Pickle put() {
            return op('q').op(memo++ & 0xff);
        }

        public Pickle str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            op('X').raw(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length).array()).raw(b);
            return put();
        }

        public Pickle integer(long v) {
            if (v >= 0 && v < 256) return op('K').op((int) v);
            if (v >= 0 && v < 65536) return op('M').op((int) (v & 0xff)).op((int) (v >>> 8));
            return op('J').raw(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array());
        }

        public Pickle mark() {
            return op('(');
        }

        public Pickle tuple(long... values) {
            mark();
            for (long v : values) integer(v);
            return op('t');
        }

        /** {@code _rebuild_tensor_v2(('storage', torch.TYPE, key, 'cpu', numel), offset, size, stride, False, OrderedDict())}. */
        public Pickle tensor(String type, String key, long numel, long offset, long[] size, long[] stride) {
            global("torch._utils", "_rebuild_tensor_v2");
            mark();
            mark().str("storage").global("torch", type).str(key).str("cpu").integer(numel).op('t').op('Q');
            integer(offset).tuple(size).tuple(stride).op(0x89);
            global("collections", "OrderedDict").op(')').op('R');
            return op('t').op('R');
        }

        /** Starts {@code OrderedDict()} and a MARK for its SETITEMS. */
        public Pickle beginStateDict() {
            return global("collections", "OrderedDict").op(')').op('R').put().mark();
        }

        /** Ends the SETITEMS, sets {@code _metadata} with BUILD as torch does, and STOPs. */
        public Pickle endStateDict() {
            op('u');
            op('}').mark().str("_metadata").op('}').op('u').op('b');
            return op('.');
        }

        public byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** A zip of stored entries in order. */
    public static void zip(Path file, Map<String, byte[]> entries) throws IOException {
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(file))) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                ZipEntry entry = new ZipEntry(e.getKey());
                entry.setMethod(ZipEntry.STORED);
                entry.setSize(e.getValue().length);
                entry.setCompressedSize(e.getValue().length);
                CRC32 crc = new CRC32();
                crc.update(e.getValue());
                entry.setCrc(crc.getValue());
                z.putNextEntry(entry);
                z.write(e.getValue());
                z.closeEntry();
            }
        }
    }

    /** The entries of a torch.save archive: data.pkl, byteorder, the storages, version. */
    public static Map<String, byte[]> archive(String top, byte[] pickle, byte[]... storages) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put(top + "/data.pkl", pickle);
        m.put(top + "/byteorder", "little".getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < storages.length; i++) m.put(top + "/data/" + i, storages[i]);
        m.put(top + "/version", "3\n".getBytes(StandardCharsets.US_ASCII));
        return m;
    }

    public static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) b.putFloat(f);
        return b.array();
    }

    public static byte[] halves(float... v) {
        ByteBuffer b = ByteBuffer.allocate(2 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) b.putShort(Float.floatToFloat16(f));
        return b.array();
    }
}
