package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.model.SafetensorsWriter;
import dev.sparseprof.model.Tensor;
import dev.sparseprof.util.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** simulate and compare through the CLI: exit codes, one-line errors for bad specs, the JSON contract. */
class SimulateCommandTest {
    @TempDir static Path dir;
    static Path model;

    @BeforeAll
    static void tinyModel() {
        Random rnd = new Random(3);
        float[] fc1 = new float[96 * 64];
        float[] fc2 = new float[64 * 96];
        for (int i = 0; i < fc1.length; i++) fc1[i] = (float) rnd.nextGaussian();
        for (int i = 0; i < fc2.length; i++) fc2[i] = (float) rnd.nextGaussian();
        model = dir.resolve("tiny.safetensors");
        SafetensorsWriter.write(model, List.of(Tensor.ofFloats("fc1.weight", new long[] {96, 64}, fc1),
                Tensor.ofFloats("fc2.weight", new long[] {64, 96}, fc2)), Map.of());
    }

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    private static Path spec(String name, String yaml) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    @Test
    void badSpecsGiveOneLineAndExitCode2() throws Exception {
        String[][] cases = {
            {"typo.yaml", "version: 1\npreset: a100-80gb\ngpu:\n  l2:\n    sise: 40MiB\n",
                "typo.yaml: gpu.l2.sise: unknown key (allowed: size, line, sector, ways, latency, bandwidth)"},
            {"neg.yaml", "version: 1\npreset: a100-80gb\ngpu:\n  l1:\n    size: -192KiB\n", "neg.yaml: gpu.l1.size: must not be negative, got -192KiB"},
            {"sets.yaml", "version: 1\npreset: epyc-zen5-2c\ncpu:\n  caches:\n    - {name: L1d, size: 40KiB, ways: 12, line: 64B, latency: 4cycles}\n",
                "sets.yaml: cpu.caches[0].size: 40.00 KiB / (12 ways x 64 B lines) is not a whole number of sets"},
            {"noversion.yaml", "name: x\ngpu: {}\n", "noversion.yaml: version: missing (this program reads version: 1)"},
        };
        for (String[] c : cases) {
            Run r = run("simulate", "--hw", spec(c[0], c[1]).toString(), "--model", model.toString());
            assertEquals(2, r.code(), c[0] + ": " + r.err());
            assertEquals("sparseprof: " + c[2] + "\n", r.err(), c[0]);
        }
    }

    @Test
    void missingPeakForTheAskedDtypeIsOneLine() {
        // The A100 spec has a CUDA-core fp64 peak (the FMA dot's float64 accumulate), but cuBLAS's fp64 GEMM runs on DMMA.
        Run r = run("simulate", "--hw", "a100-80gb", "--model", model.toString(), "--dtype", "fp64", "--format", "dense");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("sparseprof: a100.yaml: fc1") && r.err().contains("fp64 on a GPU is not modelled"), r.err());
        assertEquals(1, r.err().lines().count());
    }

    @Test
    void simulateJsonHasTheContractKeys() {
        Run r = run("simulate", "--hw", "hardware-specs/a100.yaml", "--model", model.toString(), "--sparsity", "0.9", "--json", "-");
        assertEquals(0, r.code(), r.err());
        Object parsed = Json.parse(r.out());
        Map<?, ?> root = (Map<?, ?>) parsed;
        List<?> layers = (List<?>) root.get("layers");
        assertEquals(2, layers.size());
        for (Object o : layers) {
            Map<?, ?> l = (Map<?, ?>) o;
            for (String key : List.of("name", "format", "predictedSeconds", "denseSeconds", "speedup", "bottleneck", "gap", "levels")) {
                assertTrue(l.containsKey(key), key);
            }
        }
        Map<?, ?> totals = (Map<?, ?>) root.get("totals");
        assertTrue(((Number) totals.get("predictedSeconds")).doubleValue() > 0);
    }

    @Test
    void formatTwoFourPrunesToTwoFourAndTheTableShowsIt() {
        Run r = run("simulate", "--hw", "a100-80gb", "--model", model.toString(), "--format", "2:4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("2:4-pruned"), r.out());
        assertTrue(r.out().contains("total (2 layers)"), r.out());
    }

    @Test
    void compareWritesJsonAndHtml() throws Exception {
        Path html = dir.resolve("cmp.html");
        Run r = run("compare", "--hw", "a100-80gb,epyc-zen5-2c", "--model", model.toString(), "--formats", "dense,csr,2:4",
                "--sparsity", "0.5,0.9", "--json", "-", "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        Map<?, ?> root = (Map<?, ?>) Json.parse(r.out());
        assertEquals(4, ((List<?>) root.get("scenarios")).size());
        String page = Files.readString(html);
        assertTrue(page.contains("id=\"sparseprof-data\"") && page.contains("Speedup over dense vs sparsity"), "the interactive report");
        assertTrue(!page.matches("(?s).*(src|href)=\"https?:.*"), "nothing from the network");
    }

    @Test
    void unknownFormatAndPresetAreUsageErrors() {
        Run csv = run("simulate", "--hw", "a100-80gb", "--model", model.toString(), "--format", "csv");
        assertEquals(2, csv.code());
        assertEquals("sparseprof: --format: unknown format 'csv' (known: dense, csr, csr-rowsplit, coo, bsr4x4, bsr16x16, bsr32x32, bsr64x64, 2:4, 1:2, sell-16-256, sell-8-256)\n", csv.err());
        Run int4 = run("simulate", "--hw", "a100-80gb", "--model", model.toString(), "--dtype", "int4");
        assertEquals(2, int4.code());
        assertTrue(int4.err().startsWith("sparseprof: --dtype: unknown dtype 'int4' (known: "), int4.err());
        Run formats = run("compare", "--hw", "a100-80gb", "--model", model.toString(), "--formats", "csr,nope");
        assertEquals(2, formats.code());
        assertTrue(formats.err().startsWith("sparseprof: --formats: unknown format 'nope'"), formats.err());
        assertEquals(2, run("simulate", "--hw", "a300").code());
        Run list = run("simulate", "--hw", "list");
        assertEquals(0, list.code());
        assertTrue(list.out().contains("a100-80gb"));
        assertEquals("dense\ncsr\ncsr-rowsplit\ncoo\nbsr4x4\nbsr16x16\nbsr32x32\nbsr64x64\n2:4\n1:2\nsell-16-256\nsell-8-256\n", run("simulate", "--format", "list").out());
    }

    @Test
    void twoFourOnTf32IsModelledAndLabelledOneTwo() {
        Run r = run("simulate", "--hw", "a100-80gb", "--model", model.toString(), "--format", "2:4", "--dtype", "tf32", "--json", "-");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("the sparse tensor cores run 1:2 for tf32, not 2:4"), r.err());
        Map<?, ?> root = (Map<?, ?>) Json.parse(r.out());
        for (Object l : (List<?>) root.get("layers")) assertEquals("1:2", ((Map<?, ?>) l).get("format"));
        assertEquals("1:2-pruned", root.get("pruning"));
    }
}
