package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.memsim.DineroOracle;
import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.BinaryTraceWriter;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachesimCommandTest {
    @TempDir Path dir;

    record Run(int code, String out, String err) {}

    static Run run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(new String[0]), new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyDineroCaseThroughTheCommandLine() {
        for (DineroOracle.Case c : DineroOracle.cases()) {
            List<String> args = new ArrayList<>(List.of("cachesim", "--trace", DineroOracle.dir().resolve(c.trace()).toString()));
            for (String l : c.cliLevels()) {
                args.add("--level");
                args.add(l);
            }
            args.add("--json");
            args.add("-");
            Run r = run(args);
            assertEquals(0, r.code(), r.err());
            Map<String, Object> root = Json.parseObject(r.out());
            List<Object> levels = (List<Object>) root.get("levels");
            assertEquals(c.expected().size(), levels.size());
            for (int i = 0; i < levels.size(); i++) {
                Map<String, Object> l = (Map<String, Object>) levels.get(i);
                Map<String, Object> f = (Map<String, Object>) l.get("fetches");
                Map<String, Object> m = (Map<String, Object>) l.get("misses");
                DineroOracle.Expected e = c.expected().get(i);
                assertEquals(List.of(e.fetchTotal(), e.fetchRead(), e.fetchWrite(), e.missTotal(), e.missRead(), e.missWrite(),
                                e.bytesFromMemory(), e.bytesToMemory()),
                        List.of(f.get("total"), f.get("read"), f.get("write"), m.get("total"), m.get("read"), m.get("write"),
                                l.get("bytesFromMemory"), l.get("bytesToMemory")), c + " level " + (i + 1));
            }
        }
    }

    @Test
    void impossibleConfigsAreOneLineExitTwo() {
        String trace = DineroOracle.dir().resolve("shared_csr_256.din.gz").toString();
        String[][] bad = {
                {"L1:32k:8:48", "--level L1:32k:8:48: L1: line size 48 B is not a power of two of at least 4"},
                {"L1:48k:7:64", "--level L1:48k:7:64: L1: size 48.00 KiB is not a multiple of line 64 B x 7 ways"},
                {"L1:32k:0:64", "--level L1:32k:0:64: L1: associativity must be at least 1 way, got 0"},
                {"L1:32k:8:64:mru", "--level L1:32k:8:64:mru: L1: unknown replacement policy 'mru'"},
                {"L1:32k:8", "--level L1:32k:8: level 'L1:32k:8' is not NAME:SIZE:ASSOC:LINE[:POLICY[:WRITE]]"},
        };
        for (String[] b : bad) {
            Run r = run(List.of("cachesim", "--trace", trace, "--level", b[0]));
            assertEquals(2, r.code(), b[0]);
            assertTrue(r.err().startsWith("sparseprof: " + b[1]), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
    }

    @Test
    void badTraceLineNamesFileAndLine() throws IOException {
        Path t = dir.resolve("bad.din");
        Files.writeString(t, "0 10\n1 20\n9 30\n");
        Run r = run(List.of("cachesim", "--trace", t.toString(), "--level", "L1:1k:2:64"));
        assertEquals(2, r.code());
        assertEquals("sparseprof: " + t + ":3: bad label '9' (din labels are 0-5, extended r w i m c v)", r.err().strip());
        Files.writeString(t, "0 10\n1 2x0\n");
        r = run(List.of("cachesim", "--trace", t.toString(), "--level", "L1:1k:2:64"));
        assertEquals(2, r.code());
        assertEquals("sparseprof: " + t + ":2: non-hex address (at 'x')", r.err().strip());
    }

    @Test
    @SuppressWarnings("unchecked")
    void extrasHardwareSpecMultiCoreAndTable() throws IOException {
        String trace = DineroOracle.dir().resolve("shared_mixed_random.din.gz").toString();
        Run r = run(List.of("cachesim", "--trace", trace, "--hw", "epyc-zen5-2c", "--inclusion", "L3=exclusive", "--3c",
                "--warmup", "1000", "--mrc", "--mrc-line", "32,64", "--json", "-"));
        assertEquals(0, r.code(), r.err());
        Map<String, Object> root = Json.parseObject(r.out());
        assertEquals(199_000L, root.get("accesses"));
        List<Object> levels = (List<Object>) root.get("levels");
        assertEquals(List.of("L1d", "L2", "L3"), levels.stream().map(l -> ((Map<String, Object>) l).get("name")).toList());
        assertTrue(((Map<String, Object>) root.get("memory")).containsKey("dram"));
        List<Object> mrc = (List<Object>) root.get("mrc");
        assertEquals(List.of(32L, 64L), mrc.stream().map(c -> ((Map<String, Object>) c).get("lineBytes")).toList());

        Run two = run(List.of("cachesim", "--trace", trace, "--trace", trace, "--level", "L1:32k:8:64", "--level", "L2:1m:16:64"));
        assertEquals(0, two.code(), two.err());
        assertTrue(two.out().contains("L1#0") && two.out().contains("L1#1") && two.out().contains("400,000 accesses"), two.out());

        Run list = run(List.of("cachesim", "--list"));
        assertTrue(list.out().contains("lru, fifo, random, plru, srrip"), list.out());
    }

    private Path timedTrace(String name, long... lineAndTime) throws IOException {
        Path p = dir.resolve(name);
        try (BinaryTraceWriter w = new BinaryTraceWriter(Files.newOutputStream(p), true)) {
            for (int i = 0; i < lineAndTime.length; i += 2) w.accessAt(lineAndTime[i + 1], AccessKind.READ, lineAndTime[i] * 64, 4, ArrayRole.VALUES);
        }
        return p;
    }

    @Test
    @SuppressWarnings("unchecked")
    void interleaveByTimestamps() throws IOException {
        // core 0 reads A B C at times 1 2 3, core 1 A D at 4 10, through a shared 2-line L3 (MultiCoreTest's
        // scenario): 5 L3 misses by time, 4 round-robin
        Path a = timedTrace("a.sptr", 0, 1, 1, 2, 2, 3);
        Path b = timedTrace("b.sptr", 0, 4, 3, 10);
        List<String> common = List.of("cachesim", "--trace", a.toString(), "--trace", b.toString(), "--level", "L1:128:2:64",
                "--level", "L3:128:2:64", "--json", "-");
        for (String mode : List.of("timestamps", "round-robin")) {
            List<String> args = new ArrayList<>(common);
            args.addAll(List.of("--interleave", mode));
            Run r = run(args);
            assertEquals(0, r.code(), r.err());
            List<Object> levels = (List<Object>) Json.parseObject(r.out()).get("levels");
            Map<String, Object> l3 = (Map<String, Object>) levels.getLast();
            assertEquals(mode.equals("timestamps") ? 5L : 4L, ((Map<String, Object>) l3.get("misses")).get("read"), mode);
        }
        Path din = dir.resolve("plain.din");
        Files.writeString(din, "0 10\n");
        Run r = run(List.of("cachesim", "--trace", a.toString(), "--trace", din.toString(), "--level", "L1:1k:2:64", "--interleave",
                "timestamps"));
        assertEquals(2, r.code());
        assertEquals("sparseprof: " + din + ": --interleave timestamps needs timestamped traces (.sptr with timestamps); this one has none",
                r.err().strip());
        r = run(List.of("cachesim", "--trace", a.toString(), "--level", "L1:1k:2:64", "--interleave", "random"));
        assertEquals(2, r.code());
        assertEquals("sparseprof: --interleave must be round-robin or timestamps, got 'random'", r.err().strip());
    }
}
