package dev.sparseprof.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.memsim.DineroOracle;
import dev.sparseprof.util.SparseprofException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFilesTest {
    @TempDir Path dir;

    record Rec(AccessKind kind, long address, int size, ArrayRole role) {}

    static final class Collect implements TraceSink {
        final List<Rec> recs = new ArrayList<>();

        @Override
        public void access(AccessKind kind, long address, int sizeBytes, ArrayRole role) {
            recs.add(new Rec(kind, address, sizeBytes, role));
        }
    }

    static List<Rec> read(Path p) {
        Collect c = new Collect();
        try (TraceReader r = TraceFiles.open(p)) {
            r.pushAll(c);
        }
        return c.recs;
    }

    static List<Rec> readText(String text) {
        Collect c = new Collect();
        try (TraceReader r = new DinTextReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), "t.din")) {
            r.pushAll(c);
        }
        return c.recs;
    }

    static List<Rec> randomTrace(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Rec> out = new ArrayList<>();
        int[] sizes = {1, 2, 4, 8, 16, 64, 3, 100, 4096};
        for (int i = 0; i < n; i++) {
            long a = rnd.nextInt(4) == 0 ? rnd.nextLong() : 0x10000000L + rnd.nextInt(1 << 20);
            out.add(new Rec(AccessKind.values()[rnd.nextInt(6)], a, sizes[rnd.nextInt(sizes.length)],
                    ArrayRole.values()[rnd.nextInt(ArrayRole.COUNT)]));
        }
        return out;
    }

    static void push(List<Rec> recs, TraceSink s) {
        for (Rec r : recs) s.access(r.kind(), r.address(), r.size(), r.role());
    }

    @Test
    void classicDinToleratesWhitespacePrefixAndTrailingText() {
        List<Rec> r = readText("0 10\n\n  1\t0x1F  extra\r\n2 0X0\n   \n3 abcdef0123456789\n4 0\n5 ff");
        assertEquals(List.of(
                new Rec(AccessKind.READ, 0x10, 4, ArrayRole.UNKNOWN),
                new Rec(AccessKind.WRITE, 0x1f, 4, ArrayRole.UNKNOWN),
                new Rec(AccessKind.INSTRUCTION_FETCH, 0, 4, ArrayRole.UNKNOWN),
                new Rec(AccessKind.MISC, 0xabcdef0123456789L, 4, ArrayRole.UNKNOWN),
                new Rec(AccessKind.COPY_BACK, 0, 4, ArrayRole.UNKNOWN),
                new Rec(AccessKind.INVALIDATE, 0xff, 4, ArrayRole.UNKNOWN)), r);
    }

    @Test
    void hexAddressesOfEveryLengthAndCaseParse() {
        SplittableRandom rnd = new SplittableRandom(3);
        StringBuilder text = new StringBuilder();
        List<Long> want = new ArrayList<>();
        for (int digits = 1; digits <= 16; digits++) {
            for (int k = 0; k < 20; k++) {
                StringBuilder hex = new StringBuilder();
                for (int d = 0; d < digits; d++) hex.append("0123456789abcdefABCDEF".charAt(rnd.nextInt(22)));
                want.add(Long.parseUnsignedLong(hex.toString(), 16));
                text.append(k % 3 == 0 ? "1 0x" : "0 ").append(hex).append('\n');
            }
        }
        Collect c = new Collect();
        try (DinTextReader r = new DinTextReader(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.US_ASCII)), "t.din")) {
            r.pushAll(c);
        }
        assertEquals(want, c.recs.stream().map(Rec::address).toList());
        for (int i = 0; i < 256; i++) {
            long x = (0x3030303030303030L & ~(0xffL << 16)) | ((long) i << 16);
            boolean hex = (i >= '0' && i <= '9') || (i >= 'a' && i <= 'f') || (i >= 'A' && i <= 'F');
            assertEquals(hex, DinTextReader.hexDigitHighs(x) == 0x8080808080808080L, "byte " + i); // all 8 bytes hex digits
        }
        assertEquals(0x1234abcdL, DinTextReader.hexValue8(0x6463626134333231L)); // "1234abcd" little-endian
    }

    @Test
    void fastRunsAcrossChunksAndBuffersKeepSizesAndLineNumbers() {
        // 120,000 classic records (1.3 MB: past the reader's 1 MiB buffer and many 4096-record
        // chunks), an extended record between them, then a bad line: its number counts every line
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 60_000; i++) text.append(i % 4 == 3 ? "1 " : "0 ").append(Integer.toHexString(0x10000000 + 4 * i)).append('\n');
        text.append("w 40 8\n");
        for (int i = 0; i < 60_000; i++) text.append("0 ").append(Integer.toHexString(i)).append('\n');
        List<Rec> r = readText(text.toString());
        assertEquals(120_001, r.size());
        assertEquals(new Rec(AccessKind.WRITE, 0x1000000cL, 4, ArrayRole.UNKNOWN), r.get(3));
        assertEquals(new Rec(AccessKind.WRITE, 0x40, 8, ArrayRole.UNKNOWN), r.get(60_000));
        assertEquals(new Rec(AccessKind.READ, 59_999, 4, ArrayRole.UNKNOWN), r.get(120_000));
        var e = assertThrows(TraceFormatException.class, () -> readText(text + "7 30\n"));
        assertEquals("t.din:120002: bad label '7' (din labels are 0-5, extended r w i m c v)", e.getMessage());
    }

    @Test
    void chunkTimesReadZeroUntilOneIsGiven() {
        TraceChunk c = new TraceChunk(8);
        c.add(AccessKind.READ, 1, 4, ArrayRole.UNKNOWN, 7);
        c.clear();
        c.add(AccessKind.READ, 2, 4, ArrayRole.UNKNOWN); // untimed after a clear: not the old 7
        assertEquals(0, c.timestamp(0));
        c.add(AccessKind.WRITE, 3, 8, ArrayRole.UNKNOWN, 9);
        c.appendRun(4, 4, ArrayRole.UNKNOWN); // entries 2 and 3 as a din reader's run sets them
        c.add(AccessKind.READ, 5, 4, ArrayRole.UNKNOWN);
        assertEquals(List.of(0L, 9L, 0L, 0L, 0L), IntStream.range(0, 5).mapToObj(c::timestamp).toList());
        assertEquals(List.of(4, 8, 4, 4, 4), IntStream.range(0, 5).mapToObj(c::sizeBytes).toList());
        TraceChunk copy = new TraceChunk(8);
        copy.copyFrom(c);
        assertEquals(9L, copy.timestamp(1));
    }

    @Test
    void extendedDinCarriesSizes() {
        List<Rec> r = readText("r 100 4\nw 0x200 40\ni 8 1\nm 0 2\nc 40 40\nv 80 40\n");
        assertEquals(new Rec(AccessKind.WRITE, 0x200, 0x40, ArrayRole.UNKNOWN), r.get(1));
        assertEquals(6, r.size());
        assertEquals(AccessKind.INVALIDATE, r.get(5).kind());
    }

    @Test
    void badLinesNameFileAndLine() {
        var e = assertThrows(TraceFormatException.class, () -> readText("0 10\n1 20\n7 30\n"));
        assertEquals("t.din:3: bad label '7' (din labels are 0-5, extended r w i m c v)", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> readText("0 10\n\n0 12g4\n"));
        assertEquals("t.din:3: non-hex address (at 'g')", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> readText("0 zz\n"));
        assertEquals("t.din:1: missing or non-hex address", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> readText("01 10\n"));
        assertTrue(e.getMessage().startsWith("t.din:1: bad label"), e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> readText("r 10\n"));
        assertTrue(e.getMessage().startsWith("t.din:1: missing size"), e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> readText("0 10\n1\n"));
        assertEquals("t.din:2: missing address after label '1'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> readText("0 11112222333344445\n"));
        assertTrue(e.getMessage().contains("16 hex digits"), e.getMessage());
    }

    @Test
    void binaryRoundTripKeepsEverything() throws IOException {
        List<Rec> recs = randomTrace(20_000, 3);
        for (String name : new String[] {"t.sptr", "t.sptr.gz"}) {
            Path p = dir.resolve(name);
            TraceFiles.write(p, s -> push(recs, s));
            assertEquals(recs, read(p), name);
        }
        assertTrue(Files.size(dir.resolve("t.sptr")) < 20_000L * 12);
    }

    @Test
    void extendedDinRoundTripKeepsKindAddressSize() {
        List<Rec> recs = randomTrace(5_000, 4);
        Path p = dir.resolve("t.dinx.gz");
        TraceFiles.write(p, s -> push(recs, s));
        List<Rec> back = read(p);
        for (int i = 0; i < recs.size(); i++) {
            Rec a = recs.get(i);
            assertEquals(new Rec(a.kind(), a.address(), a.size(), ArrayRole.UNKNOWN), back.get(i));
        }
    }

    @Test
    void classicDinRoundTripAndGzipDetectedByMagicNotName() throws IOException {
        List<Rec> recs = randomTrace(3_000, 5);
        Path p = dir.resolve("t.din");
        TraceFiles.write(p, s -> push(recs, s));
        Path disguised = dir.resolve("looks-plain.txt");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(disguised))) {
            o.write(Files.readAllBytes(p));
        }
        List<Rec> a = read(p);
        assertEquals(a, read(disguised));
        for (int i = 0; i < recs.size(); i++) {
            assertEquals(recs.get(i).address(), a.get(i).address());
            assertEquals(recs.get(i).kind(), a.get(i).kind());
            assertEquals(4, a.get(i).size());
        }
    }

    @Test
    void truncatedAndCorruptBinaryAreReported() throws IOException {
        Path p = dir.resolve("t.sptr");
        TraceFiles.write(p, s -> push(randomTrace(100, 6), s));
        byte[] all = Files.readAllBytes(p);
        Path cut = dir.resolve("cut.sptr");
        Files.write(cut, Arrays.copyOf(all, all.length - 3));
        var e = assertThrows(TraceFormatException.class, () -> read(cut));
        assertTrue(e.getMessage().startsWith(cut + ": byte "), e.getMessage());
        byte[] v2 = all.clone();
        v2[8] = 9;
        Path bad = dir.resolve("v9.sptr");
        Files.write(bad, v2);
        e = assertThrows(TraceFormatException.class, () -> read(bad));
        assertTrue(e.getMessage().contains("version 9"), e.getMessage());
    }

    @Test
    void countingAndTeeSinks() {
        CountingSink a = new CountingSink();
        CountingSink b = new CountingSink();
        try (TeeSink t = new TeeSink(a, b)) {
            t.access(AccessKind.READ, 0, 4, ArrayRole.VALUES);
            t.access(AccessKind.READ, 4, 8, ArrayRole.VALUES);
            t.access(AccessKind.WRITE, 8, 4, ArrayRole.C_SCATTER);
        }
        for (CountingSink c : new CountingSink[] {a, b}) {
            assertEquals(3, c.total());
            assertEquals(2, c.count(AccessKind.READ, ArrayRole.VALUES));
            assertEquals(12, c.bytes(AccessKind.READ, ArrayRole.VALUES));
            assertEquals(1, c.count(ArrayRole.C_SCATTER));
            assertEquals(2, c.count(AccessKind.READ));
            assertEquals(16, c.totalBytes());
        }
    }

    @Test
    void oracleTraceReadsWithExpectedCounts() {
        Path oracle = DineroOracle.dir();
        CountingSink c = new CountingSink();
        try (TraceReader r = TraceFiles.open(oracle.resolve("shared_csr_256.din.gz"))) {
            r.pushAll(c);
        }
        assertEquals(170_292, c.total());
        assertEquals(118_052, c.count(AccessKind.READ));
        assertEquals(52_240, c.count(AccessKind.WRITE));
    }

    @Test
    void missingFileIsOneLine() {
        var e = assertThrows(SparseprofException.class, () -> read(dir.resolve("nope.din")));
        assertTrue(e.getMessage().endsWith("nope.din: no such file"));
    }
}
