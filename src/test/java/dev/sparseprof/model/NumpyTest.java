package dev.sparseprof.model;

import static dev.sparseprof.model.NpyFixtures.npy;
import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.util.DType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NumpyTest {
    @TempDir Path dir;

    static byte[] floats(float... v) {
        return ProtoWriter.floatsLE(v);
    }

    @Test
    void cAndFortranOrderInEveryVersionGiveTheSameMatrix() throws IOException {
        float[] c = {1, 2, 3, 4, 5, 6}; // 2x3 row-major
        float[] f = {1, 4, 2, 5, 3, 6}; // the same matrix column-major
        for (int v = 1; v <= 3; v++) {
            Path cf = dir.resolve("c" + v + ".npy");
            Files.write(cf, npy(v, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", floats(c)));
            Path ff = dir.resolve("f" + v + ".npy");
            Files.write(ff, npy(v, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", floats(f)));
            try (Model a = Models.open(cf); Model b = Models.open(ff)) {
                assertEquals("c" + v, a.layers().get(0).name());
                assertArrayEquals(c, a.layers().get(0).matrix().toDense());
                assertArrayEquals(c, b.layers().get(0).matrix().toDense());
            }
        }
    }

    @Test
    void fortranOrderOfRankThreeIsReorderedToC() throws IOException {
        // shape (2,2,2): F-order element (i,j,k) sits at i + 2j + 4k
        float[] fData = new float[8];
        for (int i = 0; i < 2; i++) for (int j = 0; j < 2; j++) for (int k = 0; k < 2; k++) fData[i + 2 * j + 4 * k] = 100 * i + 10 * j + k;
        Path file = dir.resolve("t.npy");
        Files.write(file, npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2, 2), }", floats(fData)));
        try (Model m = Models.open(file)) {
            Tensor t = m.tensors().get(0);
            for (int i = 0; i < 8; i++) assertEquals(100 * (i >> 2) + 10 * ((i >> 1) & 1) + (i & 1), t.getFloat(i));
        }
    }

    @Test
    void npzStoredAndDeflatedMembersAreRead() throws IOException {
        byte[] a = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", floats(1, 0, 0, 4));
        byte[] b = npy(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }", new byte[] {1, 2, 3});
        Path file = dir.resolve("w.npz");
        try (OutputStream out = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(out)) {
            ZipEntry stored = new ZipEntry("layer1.weight.npy");
            stored.setMethod(ZipEntry.STORED);
            stored.setSize(a.length);
            CRC32 crc = new CRC32();
            crc.update(a);
            stored.setCrc(crc.getValue());
            zip.putNextEntry(stored);
            zip.write(a);
            zip.closeEntry();
            zip.putNextEntry(new ZipEntry("counts.npy"));
            zip.write(b);
            zip.closeEntry();
        }
        try (Model m = Models.open(file)) {
            assertEquals(2, m.tensors().size());
            assertEquals(1, m.layers().size());
            assertEquals("layer1.weight", m.layers().get(0).name());
            assertArrayEquals(new float[] {1, 0, 0, 4}, m.layers().get(0).matrix().toDense());
            assertEquals(DType.I8, m.tensors().get(1).dtype());
        }
    }

    @Test
    void badArraysAreOneLineErrors() throws IOException {
        Path f = dir.resolve("bad.npy");
        Files.write(f, new byte[] {1, 2, 3});
        assertFault(f, "truncated");
        Files.write(f, "NOTNUMPYATALL".getBytes(StandardCharsets.US_ASCII));
        assertFault(f, "bad magic");
        byte[] lying = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", floats(1, 2));
        ByteBuffer.wrap(lying).order(ByteOrder.LITTLE_ENDIAN).putShort(8, (short) 60000);
        Files.write(f, lying);
        assertFault(f, "header claims 60000 bytes");
        byte[] v2 = npy(2, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", floats(1, 2));
        ByteBuffer.wrap(v2).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 100_000_000);
        Files.write(f, v2);
        assertFault(f, "header claims 100000000 bytes");
        Files.write(f, npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }", floats(1, 2)));
        assertFault(f, "needs 36 bytes");
        Files.write(f, npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", floats(1, 2)));
        assertFault(f, "big-endian");
        Files.write(f, npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", new byte[8]));
        assertFault(f, "unsupported dtype");
        Files.write(f, npy(1, "{'descr': '<f4', 'shape': (1,), }", new byte[4]));
        assertFault(f, "fortran_order");
        Files.write(f, npy(9, "{}", new byte[0]));
        assertFault(f, "version 9");
        Path z = dir.resolve("bad.npz");
        Files.write(z, new byte[] {'P', 'K', 3, 4, 0, 0});
        assertFault(z, "");
        ByteArrayOutputStream empty = new ByteArrayOutputStream();
        new ZipOutputStream(empty).close();
        Files.write(z, empty.toByteArray());
        assertFault(z, "no arrays");
    }
}
