package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate's published groups: the per-group table (dense, 2:4, speedup MAPE, sign agreement) and its JSON. */
class ValidatePublishedTest {
    static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    @Test
    @SuppressWarnings("unchecked")
    void publishedGroupsAreSummarisedInTheTableAndTheJson(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("published"));
        Files.writeString(dir.resolve("published/cases.yaml"), """
                version: 2
                cases:
                  - {ref: one, group: A100 X, source: s1, spec: a100-80gb, runtime: {preset: torch-cutlass}, dtype: fp16,
                     gemm: {m: 768, k: 3072, n: 12288}, denseTime: 264.7us, sparseTime: 188.6us}
                  - {ref: two, group: H100 Y, source: s2, spec: h100-sxm, runtime: {preset: cutlass, sparseKernels: sm80}, dtype: bf16,
                     gemm: {m: 768, k: 4096, n: 4096}, speedup: 0.62}
                """);
        String[] r = run("validate", "--cases", dir.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("published group") && r[1].contains("sign agreement"), r[1]);
        assertTrue(r[1].lines().anyMatch(l -> l.startsWith("A100 X ") && l.contains("(1)") && l.contains("1/1 (100%)")), r[1]);
        assertTrue(r[1].lines().anyMatch(l -> l.startsWith("all H100 groups ")), r[1]);
        String[] j = run("validate", "--cases", dir.toString(), "--json", "-");
        assertEquals("0", j[0], j[2]);
        Map<String, Object> json = Json.parseObject(j[1]);
        List<Object> published = (List<Object>) json.get("published");
        Map<String, Object> first = (Map<String, Object>) published.get(0);
        assertEquals("A100 X", first.get("group"));
        for (String k : List.of("denseTimeMape", "sparseTimeMape", "speedupMape", "signAgreed", "signs", "signAgreement")) {
            assertTrue(first.containsKey(k), k);
        }
        assertEquals(1L, first.get("signs"));
        List<Object> cases = (List<Object>) json.get("cases");
        Map<String, Object> c = (Map<String, Object>) cases.get(0);
        assertEquals("A100 X", c.get("group"));
        assertTrue(((String) c.get("source")).contains("half"), "each case says which half it is in: " + c.get("source"));
    }

    @Test
    void aBadPublishedFileIsOneLineAndExitCode2(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("published"));
        Files.writeString(dir.resolve("published/bad.yaml"), "version: 2\ncases:\n  - {ref: a, group: G, source: s, spec: a100-80gb, "
                + "runtime: {launch: -2us}, dtype: fp16, gemm: {m: 8, k: 8, n: 8}}\n");
        String[] r = run("validate", "--cases", dir.toString());
        assertEquals("2", r[0]);
        assertEquals(1, r[2].lines().count(), r[2]);
        assertTrue(r[2].contains("bad.yaml") && r[2].contains("runtime.launch: must not be negative"), r[2]);
    }

    @Test
    void runtimeChoicesAndFaultsOnSimulate(@TempDir Path dir) throws Exception {
        String[] ok = run("simulate", "--hw", "a100-80gb", "--runtime", "torch-cutlass", "--format", "2:4",
                "--json", "-");
        assertEquals("0", ok[0], ok[2]);
        assertTrue(ok[1].contains("torch-cutlass"), "the plan names its runtime");
        String[][] bad = {
            {"--hw", "a100-80gb", "--runtime", "tensorrt-9"}, {"--hw", "xeon-spr", "--runtime", "cutlass"},
        };
        for (String[] b : bad) {
            String[] args = new String[b.length + 1];
            args[0] = "simulate";
            System.arraycopy(b, 0, args, 1, b.length);
            String[] r = run(args);
            assertEquals("2", r[0], String.join(" ", b) + ": " + r[2]);
            assertEquals(1, r[2].lines().count(), r[2]);
            assertTrue(r[2].startsWith("sparseprof: --runtime"), r[2]);
        }
        Path spec = dir.resolve("rt.yaml");
        Files.writeString(spec, "version: 1\npreset: a100-80gb\nruntime:\n  sparseHost: 5 parsecs\n");
        String[] r = run("simulate", "--hw", spec.toString());
        assertEquals("2", r[0], r[2]);
        assertEquals(1, r[2].lines().count(), r[2]);
        assertTrue(r[2].contains("rt.yaml: runtime.sparseHost:"), r[2]);
    }
}
