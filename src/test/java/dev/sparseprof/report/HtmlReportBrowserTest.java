package dev.sparseprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.cli.Main;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML reports in a real browser: headless Chromium loads {@code simulate --html} and
 * {@code compare --html} on the bundled MiniLM from a file with the network blocked, prints no
 * console message, and every chart draws its marks (the page script writes each chart's SVG mark
 * count into {@code data-rendered}). Screenshots land in {@code target/report-screenshots/}.
 * Skipped, with one line, where no chromium is installed.
 */
class HtmlReportBrowserTest {
    private static final Path SHOTS = Path.of("target", "report-screenshots");

    private static String chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) return p.toString();
            }
        }
        return null;
    }

    private record Loaded(String dom, String log) {}

    private static Loaded load(String chromium, Path page, Path profile, Path screenshot) throws IOException, InterruptedException {
        List<String> base = List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
                "--window-size=1400,3600", "--virtual-time-budget=10000");
        List<String> dump = new ArrayList<>(base);
        dump.add("--dump-dom");
        dump.add(page.toUri().toString());
        Path out = profile.resolve("dom.html");
        Path err = profile.resolve("log.txt");
        run(dump, out, err);
        List<String> shot = new ArrayList<>(base);
        shot.add("--screenshot=" + screenshot.toAbsolutePath());
        shot.add(page.toUri().toString());
        run(shot, profile.resolve("shot.out"), profile.resolve("shot.err"));
        return new Loaded(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void run(List<String> command, Path out, Path err) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s: " + command);
        }
    }

    private static void write(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, err.toString());
    }

    /** Each chart id of the page with the SVG marks it drew (-1: it never reported). */
    private static void assertChartsDrew(Loaded l, Map<String, Integer> minimumMarks) {
        assertTrue(l.dom().contains("data-ready=\"true\""), "the page script ran to its end");
        for (Map.Entry<String, Integer> c : minimumMarks.entrySet()) {
            Matcher m = Pattern.compile("id=\"" + c.getKey() + "\"[^>]*data-rendered=\"(\\d+)\"").matcher(l.dom());
            assertTrue(m.find(), c.getKey() + " drew nothing");
            int marks = Integer.parseInt(m.group(1));
            assertTrue(marks >= c.getValue(), c.getKey() + ": " + marks + " SVG marks, expected at least " + c.getValue());
        }
        List<String> console = new ArrayList<>();
        for (String line : l.log().split("\n")) if (line.contains("CONSOLE")) console.add(line);
        assertEquals(List.of(), console, "console messages");
    }

    @Test
    void simulateAndCompareReportsRenderEveryChartWithoutConsoleErrors(@TempDir Path dir) throws Exception {
        String chromium = chromium();
        Assumptions.assumeTrue(chromium != null, "chromium not installed: the browser test of the HTML report is skipped");
        Files.createDirectories(SHOTS);

        Path sim = dir.resolve("simulate.html");
        write("simulate", "--hw", "a100", "--sparsity", "0.9", "--traffic", "analytical", "--html", sim.toString());
        String page = Files.readString(sim);
        assertFalse(page.matches("(?s).*(src|href)=\"https?:.*"), "nothing loaded from the network");
        Files.createDirectories(dir.resolve("p1"));
        Loaded s = load(chromium, sim, dir.resolve("p1"), SHOTS.resolve("simulate.png"));
        // 36 layers: roofline points (chosen + dense) and roofs, 9 waterfall bars, 72 time bars, 72 miss-rate bars, 36 sparsity bars
        assertChartsDrew(s, Map.of("roofline", 72, "waterfall", 9, "times", 72, "missrates", 72, "sparsity", 36));
        assertTrue(Files.size(SHOTS.resolve("simulate.png")) > 10_000, "a screenshot");

        Path cmp = dir.resolve("compare.html");
        write("compare", "--hw", "a100,epyc-zen5-2c", "--formats", "csr,bsr4x4,2:4", "--sparsity", "0.5,0.9",
                "--traffic", "analytical", "--html", cmp.toString());
        Files.createDirectories(dir.resolve("p2"));
        Loaded c = load(chromium, cmp, dir.resolve("p2"), SHOTS.resolve("compare.png"));
        // 2 specs x 3 formats curves, 36 layers x (dense + 3 formats) bars, the winners' roofline and waterfall
        assertChartsDrew(c, Map.of("curves", 6, "times", 144, "roofline", 72, "waterfall", 9));
        assertTrue(c.dom().contains("<table class=\"sortable\">"), "a sortable table");
    }
}
