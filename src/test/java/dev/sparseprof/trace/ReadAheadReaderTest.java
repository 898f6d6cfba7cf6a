package dev.sparseprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.Progress;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The read-ahead thread hands over every record in order, then the inner reader's fault, then the end. */
class ReadAheadReaderTest {
    private static DinTextReader din(String text) {
        return new DinTextReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), "t.din");
    }

    @Test
    void recordsComeOutInOrderAcrossChunks() {
        StringBuilder text = new StringBuilder();
        int n = 3 * TraceChunk.DEFAULT_CAPACITY * 4 + 17; // more chunks than the read-ahead holds
        for (int i = 0; i < n; i++) text.append(i % 2).append(' ').append(Integer.toHexString(8 * i)).append('\n');
        TraceChunk chunk = new TraceChunk();
        long seen = 0;
        try (ReadAheadReader r = new ReadAheadReader(din(text.toString()))) {
            int k;
            while ((k = r.fill(chunk)) > 0) {
                for (int i = 0; i < k; i++, seen++) {
                    assertEquals(8 * seen, chunk.address(i));
                    assertEquals(seen % 2 == 0 ? AccessKind.READ : AccessKind.WRITE, chunk.kind(i));
                }
            }
            assertEquals(0, r.fill(chunk), "stays over");
        }
        assertEquals(n, seen);
    }

    @Test
    void pushAllHandsTheQueuedChunksOverInOrder() {
        StringBuilder text = new StringBuilder();
        int n = 3 * TraceChunk.DEFAULT_CAPACITY * 4 + 17;
        for (int i = 0; i < n; i++) text.append(i % 2).append(' ').append(Integer.toHexString(8 * i)).append('\n');
        long[] seen = {0};
        TraceSink inOrder = (kind, address, sizeBytes, role) -> {
            assertEquals(8 * seen[0], address);
            assertEquals(seen[0] % 2 == 0 ? AccessKind.READ : AccessKind.WRITE, kind);
            assertEquals(4, sizeBytes);
            seen[0]++;
        };
        long[] progressCalls = {0};
        Progress progress = new Progress() {
            @Override
            public void update(long done, long total) {
                progressCalls[0]++;
            }
        };
        try (ReadAheadReader r = new ReadAheadReader(din(text.toString()))) {
            assertEquals(n, r.pushAll(inOrder, progress, 1));
            assertEquals(0, r.pushAll(inOrder), "stays over");
        }
        assertEquals(n, seen[0]);
        assertTrue(progressCalls[0] >= n / TraceChunk.DEFAULT_CAPACITY, "progress once a chunk");
        try (ReadAheadReader r = new ReadAheadReader(din("0 10\n1 20\n7 30\n"))) {
            assertThrows(TraceFormatException.class, () -> r.pushAll(inOrder));
        }
    }

    @Test
    void faultComesAfterTheRecordsBeforeIt() {
        try (ReadAheadReader r = new ReadAheadReader(din("0 10\n1 20\n7 30\n"))) {
            TraceChunk chunk = new TraceChunk();
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> r.fill(chunk));
            assertTrue(e.getMessage().contains("t.din") && e.getMessage().contains("3"), e.getMessage());
        }
    }

    @Test
    void closingEarlyStopsTheThread() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 100_000; i++) text.append("0 ").append(Integer.toHexString(i)).append('\n');
        ReadAheadReader r = new ReadAheadReader(din(text.toString()));
        assertTrue(r.fill(new TraceChunk()) > 0);
        r.close();
    }
}
