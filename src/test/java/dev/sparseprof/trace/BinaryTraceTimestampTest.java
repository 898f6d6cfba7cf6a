package dev.sparseprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** {@code .sptr} version 2: timestamps round-trip, version 1 files still read, bad headers and times are refused. */
class BinaryTraceTimestampTest {
    private static byte[] write(boolean timestamped, long... times) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BinaryTraceWriter w = new BinaryTraceWriter(bytes, timestamped)) {
            for (int i = 0; i < times.length; i++) w.accessAt(times[i], AccessKind.WRITE, 0x1000L + 8 * i, 8, ArrayRole.VALUES);
        }
        return bytes.toByteArray();
    }

    private static BinaryTraceReader read(byte[] bytes) {
        return new BinaryTraceReader(new ByteArrayInputStream(bytes), "t.sptr", null);
    }

    @Test
    void timestampsRoundTrip() {
        long[] times = {0, 0, 3, 1L << 40, (1L << 40) + 1};
        BinaryTraceReader r = read(write(true, times));
        assertTrue(r.timestamped());
        TraceChunk c = new TraceChunk();
        assertEquals(times.length, r.fill(c));
        for (int i = 0; i < times.length; i++) {
            assertEquals(times[i], c.timestamp(i));
            assertEquals(0x1000L + 8 * i, c.address(i));
        }
    }

    @Test
    void versionOneFilesStillRead() {
        byte[] v2 = write(false, 0, 0, 0);
        // version 1 is version 2 without the flags byte (after the 8-byte magic and the version)
        byte[] v1 = new byte[v2.length - 1];
        System.arraycopy(v2, 0, v1, 0, 9);
        System.arraycopy(v2, 10, v1, 9, v2.length - 10);
        v1[8] = 1;
        BinaryTraceReader r = read(v1);
        assertFalse(r.timestamped());
        TraceChunk c = new TraceChunk();
        assertEquals(3, r.fill(c));
        assertEquals(0x1010L, c.address(2));
        assertEquals(0, r.fill(c));
    }

    @Test
    void unknownFlagsAndVersionsAreRefused() {
        byte[] b = write(false, 0);
        b[9] = 0x02;
        assertTrue(assertThrows(TraceFormatException.class, () -> read(b)).getMessage().contains("t.sptr: byte 10: unknown header flags"));
        b[8] = 3;
        assertTrue(assertThrows(TraceFormatException.class, () -> read(b)).getMessage().contains("version 3"));
    }

    @Test
    void timeMustNotGoBack() {
        assertThrows(IllegalArgumentException.class, () -> write(true, 5, 4));
    }
}
