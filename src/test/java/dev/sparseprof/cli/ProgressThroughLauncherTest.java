package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 item 4: a progress bar reaches the terminal while the command runs, through the
 * {@code ./sparseprof} launcher, in a pseudo-terminal ({@code script} from util-linux; skipped with
 * one line where it is absent). The bytes are read as they arrive and stamped with the time.
 */
class ProgressThroughLauncherTest {
    @TempDir Path dir;

    /** The real JVM: cachesim's bar, drawn from the start (SPARSEPROF_PROGRESS_AFTER_MS=0), comes before the table and well before the end. */
    @Test
    void cachesimBarArrivesWhileItRuns() throws Exception {
        Path trace = dir.resolve("mixed.din");
        writeMixedTrace(trace, 1_500_000);
        String cmd = "./sparseprof cachesim --trace " + trace + " --level L1:32k:8:64 --level L2:1m:16:64 --level L3:32m:16:64";
        Stream s = inTerminal(cmd, List.of("SPARSEPROF_CLASSPATH=" + System.getProperty("java.class.path"),
                "SPARSEPROF_PROGRESS_AFTER_MS=0", "SPARSEPROF_JAVA_OPTS=-Xmx512m"));
        assertEquals(0, s.code, s.text());
        String text = s.text();
        int bar = text.indexOf("\rcachesim [");
        int table = text.indexOf("level ");
        assertTrue(bar >= 0, "a bar was drawn: " + text);
        assertTrue(table > bar, "the bar came before the table: " + text);
        long barAt = s.arrival(bar);
        assertTrue(s.endNanos - barAt > 100_000_000L,
                "the bar arrived " + (s.endNanos - barAt) / 1e6 + " ms before the end, not with it");
        assertFalse(text.contains("WARNING"), text);
    }

    /**
     * A command with the Vector API module: the launcher's filter drops the JVM's boot warning and
     * passes a carriage-return redraw on at once (a line filter held it to the end). A stub JDK
     * draws, waits 1.5 s, draws again.
     */
    @Test
    void filteredStandardErrorPassesRedrawsAtOnce() throws Exception {
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        Files.writeString(dir.resolve("jdk/release"), "JAVA_VERSION=\"25\"\n");
        Path java = jdk.resolve("java");
        Files.writeString(java, """
                #!/usr/bin/env bash
                echo "WARNING: Using incubator modules: jdk.incubator.vector" >&2
                printf '\\rworking 1 ' >&2
                sleep 1.5
                printf '\\rworking 2 ' >&2
                echo done
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Stream s = inTerminal("./sparseprof profile", List.of("JAVA_HOME=" + dir.resolve("jdk"), "SPARSEPROF_CLASSPATH=unused"));
        assertEquals(0, s.code, s.text());
        String text = s.text();
        assertFalse(text.contains("WARNING"), text);
        int first = text.indexOf("\rworking 1");
        assertTrue(first >= 0, text);
        assertTrue(text.indexOf("working 2") > first && text.indexOf("done") > first, text);
        assertTrue(s.endNanos - s.arrival(first) > 1_000_000_000L,
                "the first redraw arrived " + (s.endNanos - s.arrival(first)) / 1e6 + " ms before the end, not with it");
    }

    /** What came out of the terminal: the bytes, each read's end offset and time, the exit code. */
    record Stream(int code, byte[] bytes, List<long[]> reads, long endNanos) {
        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** When the byte at {@code offset} (of the text, ASCII here) arrived. */
        long arrival(int offset) {
            for (long[] r : reads) if (offset < r[0]) return r[1];
            throw new IllegalArgumentException("offset " + offset);
        }
    }

    private static Stream inTerminal(String command, List<String> env) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")) || onPath("script"),
                "no 'script' (util-linux) here: the pseudo-terminal test is skipped");
        List<String> cmd = new ArrayList<>(List.of("script", "-q", "-e", "-c", command, "/dev/null"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        for (String e : env) pb.environment().put(e.substring(0, e.indexOf('=')), e.substring(e.indexOf('=') + 1));
        Process p = pb.start();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        List<long[]> reads = new ArrayList<>();
        byte[] buf = new byte[4096];
        try (InputStream in = p.getInputStream()) {
            int n;
            while ((n = in.read(buf)) > 0) {
                all.write(buf, 0, n);
                reads.add(new long[] {all.size(), System.nanoTime()});
            }
        }
        long end = System.nanoTime();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Stream(p.exitValue(), all.toByteArray(), reads, end);
    }

    private static boolean onPath(String name) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) if (Files.isExecutable(Path.of(d, name))) return true;
        return false;
    }

    /** 40% of the records uniform over 64 MiB (misses at every level, so the run lasts), the rest a stream; 30% writes. */
    private static void writeMixedTrace(Path p, int records) throws IOException {
        SplittableRandom r = new SplittableRandom(3);
        long stream = 0x10000000L;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(p), 1 << 16)) {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < records; i++) {
                long a = r.nextDouble() < 0.4 ? 0x20000000L + 4 * r.nextLong(1 << 24) : (stream += 4);
                b.setLength(0);
                b.append(r.nextDouble() < 0.3 ? "1 " : "0 ").append(Long.toHexString(a)).append('\n');
                out.write(b.toString().getBytes(StandardCharsets.US_ASCII));
            }
        }
    }
}
