package dev.sparseprof.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The inflation thread's stream: every byte in order across blocks, the inner fault after the bytes before it, an early close. */
class ReadAheadInputStreamTest {
    @Test
    void bytesComeOutUnchangedAcrossBlocks() throws IOException {
        byte[] data = new byte[7 * (1 << 20) + 12345]; // more blocks than the read-ahead holds
        new Random(5).nextBytes(data);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (InputStream in = new ReadAheadInputStream(new ByteArrayInputStream(data), "t")) {
            assertEquals(data[0] & 0xff, in.read());
            got.write(data[0]);
            byte[] buf = new byte[100_000];
            int n;
            while ((n = in.read(buf, 0, buf.length)) > 0) got.write(buf, 0, n);
            assertEquals(-1, in.read(), "stays over");
        }
        assertArrayEquals(data, got.toByteArray());
    }

    @Test
    void faultComesAfterTheBytesBeforeIt() throws IOException {
        InputStream failing = new InputStream() {
            private int left = 3000;

            @Override
            public int read() throws IOException {
                if (left-- > 0) return 'x';
                throw new IOException("Unexpected end of ZLIB input stream");
            }
        };
        try (InputStream in = new ReadAheadInputStream(failing, "t")) {
            byte[] buf = new byte[1 << 16];
            int total = 0;
            IOException e = null;
            try {
                int n;
                while ((n = in.read(buf, 0, buf.length)) > 0) total += n;
            } catch (IOException thrown) {
                e = thrown;
            }
            assertEquals(3000, total);
            assertTrue(e != null && e.getMessage().contains("ZLIB"), String.valueOf(e));
        }
    }

    @Test
    void closingEarlyStopsTheThread() throws IOException {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'y';
            }
        };
        InputStream in = new ReadAheadInputStream(endless, "t");
        assertEquals('y', in.read());
        in.close();
        assertThrows(NullPointerException.class, () -> in.read(null, 0, 1));
    }
}
