package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.calibrate.MeasuredRuns;
import dev.sparseprof.kernel.CsrSpmm;
import dev.sparseprof.kernel.NnzBalancedPartition;
import dev.sparseprof.kernel.TracedRun;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.Pruning;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.trace.CountingSink;
import dev.sparseprof.trace.TraceFiles;
import dev.sparseprof.trace.TraceReader;
import dev.sparseprof.util.MatrixView;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sparseprof measure} and {@code trace} on the bundled MiniLM: output and bad input. */
class MeasureCommandTest {
    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void measuresOneLayerAndWritesJson(@TempDir Path dir) {
        Path json = dir.resolve("m.json");
        Run r = run("measure", "--formats", "csr", "--batch", "4", "--reps", "2", "--sparsity", "0.8",
                "--layers", "/encoder/layer.0/attention/self/query/MatMul", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("vs dense"), r.out());
        MeasurementsFile f = MeasurementsFile.read(json);
        assertEquals(2, f.results().size());
        assertEquals("csr", f.results().get(1).format());
        assertEquals(0.8, f.results().get(1).sparsity(), 0.01);
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        String[][] cases = {
                {"measure", "--formats", "csr", "--batch", "0"},
                {"measure", "--formats", "csx", "--batch", "4"},
                {"measure", "--formats", "csr", "--batch", "4", "--layers", "fc9"},
                {"measure", "--formats", "csr", "--batch", "4", "--partition", "zigzag"},
                {"measure", "--formats", "2:4", "--batch", "4", "--layers", "/encoder/layer.0/attention/self/query/MatMul", "--reps", "1"},
                {"measure", "--formats", "csr", "--batch", "4", "--threads", "1025"},
        };
        String[] expected = {"--batch must be positive, got 0", "unknown format 'csx'", "--layers: no layer 'fc9'", "unknown partition 'zigzag'",
                "layer '/encoder/layer.0/attention/self/query/MatMul': format 2:4 cannot hold this matrix: not 2:4: row 0 group",
                "--threads 1025: more than the"};
        for (int i = 0; i < cases.length; i++) {
            Run r = run(cases[i]);
            assertEquals(2, r.code(), String.join(" ", cases[i]) + ": " + r.err());
            assertTrue(r.err().contains(expected[i]), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }

    @Test
    void theHeaderHoldsTheCommandAsTyped() {
        Run r = run("measure", "--formats", "csr", "--batch", "4", "--reps", "1", "--layers", "/encoder/layer.0/attention/self/query/MatMul",
                "--json", "-");
        assertEquals(0, r.code(), r.err());
        String command = MeasurementsFile.parse("stdout", r.out()).header().command();
        assertTrue(command.startsWith("sparseprof measure --formats csr "), command);
    }

    @Test
    void gpuMeasureSaysInOneLineWhenThereIsNoGpu() {
        Run bad = run("measure", "--device", "gpu", "--formats", "coo", "--batch", "8");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--formats coo: no GPU kernel"), bad.err());
        Run r = run("measure", "--device", "gpu", "--formats", "csr", "--batch", "8", "--reps", "2",
                "--layers", "/encoder/layer.0/attention/self/query/MatMul", "--sparsity", "0.9", "--json", "-");
        org.junit.jupiter.api.Assumptions.assumeTrue(r.code() != 0, "a GPU is present: the measured path runs instead");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("no GPU"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void gpuMeasureWritesTheMeasurementsJsonWhereThereIsAGpu() {
        Run r = run("measure", "--device", "gpu", "--formats", "csr,bsr4x4", "--batch", "8", "--reps", "2",
                "--layers", "/encoder/layer.0/attention/self/query/MatMul", "--sparsity", "0.9", "--json", "-");
        org.junit.jupiter.api.Assumptions.assumeFalse(r.err().contains("no GPU"), "no GPU on this machine");
        assertEquals(0, r.code(), r.err());
        MeasuredRuns m = MeasuredRuns.parse("stdout", r.out());
        assertEquals("gpu", m.device());
        assertEquals(3, m.runs().size());
    }

    @Test
    void measuresTwoFourAfterNmPruning() {
        Run r = run("measure", "--formats", "2:4,csr", "--batch", "8", "--reps", "2", "--nm", "2:4",
                "--layers", "/encoder/layer.0/attention/self/query/MatMul", "--json", "-");
        assertEquals(0, r.code(), r.err());
        MeasurementsFile f = MeasurementsFile.parse("stdout", r.out());
        assertEquals(3, f.results().size());
        assertEquals("2:4", f.results().get(1).format());
        assertEquals(0.5, f.results().get(1).sparsity(), 0.01);
    }

    private static MatrixView layerMatrix() {
        try (Model m = Models.openDefault()) {
            return MatrixView.of(384, 384, LayerSelection.one(m, "/encoder/layer.0/attention/self/query/MatMul", "--layer").matrix().toDense());
        }
    }

    @Test
    void tracesOneFilePerThread(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("q.din.gz");
        Run r = run("trace", "--layer", "/encoder/layer.0/attention/self/query/MatMul", "--format", "csr", "--batch", "16",
                "--sparsity", "0.95", "--threads", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.size(dir.resolve("q.t0.din.gz")) > 0);
        assertTrue(Files.size(dir.resolve("q.t1.din.gz")) > 0);
        assertTrue(r.out().contains("colidx"), r.out());
        // the simulator's reader takes the files back: as many records as the traced twin pushed
        long records;
        try (TraceReader reader = TraceFiles.open(dir.resolve("q.t0.din.gz"))) {
            records = reader.pushAll(new CountingSink());
        }
        CountingSink[] expected = {new CountingSink(), new CountingSink()};
        TracedRun.trace(new CsrSpmm(), Pruning.magnitude("q", layerMatrix(), 0.95),
                new TracedRun.Settings(16, 2, new NnzBalancedPartition(), 0x10000000L, 4096), expected);
        assertEquals(expected[0].total(), records);
        assertEquals(Path.of("a/x.t3.din.gz"), TraceCommand.threadFile(Path.of("a/x.din.gz"), ".t", 3));
        Run gpu = run("trace", "--layer", "/encoder/layer.0/attention/self/query/MatMul", "--format", "csr", "--batch", "32",
                "--sparsity", "0.95", "--gpu-sms", "2", "--out", dir.resolve("g.sptr").toString());
        assertEquals(0, gpu.code(), gpu.err());
        assertTrue(Files.size(dir.resolve("g.sm1.sptr")) > 0);
        Run bad = run("trace", "--layer", "fc9", "--format", "csr", "--batch", "16", "--out", dir.resolve("x.din").toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--layer: no layer 'fc9'"), bad.err());
        Run zero = run("trace", "--layer", "/encoder/layer.0/attention/self/query/MatMul", "--format", "csr", "--batch", "0",
                "--out", dir.resolve("x.din").toString());
        assertEquals(2, zero.code());
        assertTrue(!Files.exists(dir.resolve("x.din")), "nothing half-written");
    }
}
