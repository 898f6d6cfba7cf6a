package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.SparseprofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published cases run on their shipped specs and runtimes; what is asserted is their shape
 * (every figure has a finite error, every speedup a sign, no 2:4 speedup above 2x, the split is the
 * fixed one) and the per-group summary's arithmetic. The errors themselves are reported by
 * {@code validate} and docs/perfmodel.md, not asserted here.
 */
class PublishedCasesTest {
    @Test
    void publishedCasesRunAndKeepTheirShape() {
        for (String file : new String[] {"a100", "h100", "crossovers"}) {
            List<PublishedCases.Row> rows = PublishedCases.evaluate(Path.of("validation/published/" + file + ".yaml"));
            assertFalse(rows.isEmpty(), file);
            for (PublishedCases.Row r : rows) {
                assertTrue(Double.isFinite(r.error()), r.toString());
                assertFalse(r.source().isBlank(), r.toString());
                if (r.unit().equals("x")) {
                    assertTrue(r.predictedValue() > 0 && r.predictedValue() <= 2.0, "2:4 within its FLOP bound: " + r);
                    assertTrue(r.publishedFaster() != null, "every speedup has a published sign: " + r);
                }
                assertEquals(PublishedCases.fitHalf(r.caseName()), r.fit());
            }
        }
    }

    @Test
    void theSplitIsAFixedFunctionOfTheRef() {
        // CRC32("pr90119-cslt-m768-k3072-n3072") is even, CRC32("tut-linear-10240x3072-a100") odd (python3 zlib.crc32 agrees).
        assertTrue(PublishedCases.fitHalf("pr90119-cslt-m768-k3072-n3072"));
        assertFalse(PublishedCases.fitHalf("tut-linear-10240x3072-a100"));
    }

    @Test
    void summariesCountMapePerKindAndSigns(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cases.yaml");
        Files.writeString(f, """
                version: 2
                cases:
                  - ref: big
                    group: G
                    source: test
                    spec: a100-80gb
                    runtime: {preset: torch-cusparselt}
                    dtype: fp16
                    gemm: {m: 3072, k: 10240, n: 3072}
                    denseTime: 0.87ms
                    sparseTime: 0.63ms
                  - ref: decode
                    group: G
                    source: test
                    spec: a100-80gb
                    runtime: {preset: torch-cusparselt-percall}
                    dtype: fp16
                    gemm: {m: 4096, k: 4096, n: 1}
                    speedup: 0.11
                """);
        List<PublishedCases.Row> rows = PublishedCases.evaluate(f);
        assertEquals(4, rows.size(), "dense, 2:4, computed speedup; one speedup");
        PublishedCases.Summary s = PublishedCases.summarize(rows).get(0);
        assertEquals("G", s.group());
        assertEquals(1, s.denseCount());
        assertEquals(1, s.sparseCount());
        assertEquals(2, s.speedupCount());
        assertEquals(2, s.signCount());
        assertEquals(2, s.signAgreed(), "a large GEMM gains, a 1-token one under per-call plans loses");
        assertEquals(100 * Math.abs(rows.get(0).error()), s.denseMape(), 1e-9);
    }

    @Test
    void badCasesAreOneLine(@TempDir Path dir) throws Exception {
        String[][] cases = {
            {"version: 2\ncases:\n  - {ref: a, group: G, source: s, spec: a100-80gb, dtype: fp16, gemm: {m: 8, k: 8, n: 8}, speed: 1}\n",
                "speed: unknown key"},
            {"version: 2\ncases:\n  - {ref: a, group: G, source: s, spec: a100-80gb, runtime: {preset: nope}, dtype: fp16, gemm: {m: 8, k: 8, n: 8}}\n",
                "runtime.preset: runtime 'nope' is not a preset"},
            {"version: 2\ncases:\n  - {ref: a, group: G, source: s, spec: a100-80gb, dtype: fp16, gemm: {m: 8, k: 8, n: 8}, denseTime: -1us}\n",
                "denseTime: must not be negative"},
        };
        for (String[] c : cases) {
            Path f = dir.resolve("bad.yaml");
            Files.writeString(f, c[0]);
            SparseprofException e = assertThrows(SparseprofException.class, () -> PublishedCases.evaluate(f));
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().startsWith("bad.yaml"), e.getMessage());
            assertEquals(1, e.getMessage().lines().count());
        }
    }

    @Test
    void theFirstLayoutIsStillRead(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("v1.yaml");
        Files.writeString(f, """
                version: 1
                cases:
                  - name: bert-like
                    kind: speedup
                    source: test
                    spec: a100-80gb
                    dtype: fp16
                    gemms:
                      - {m: 768, k: 768, n: 1536, count: 4}
                      - {m: 3072, k: 768, n: 1536}
                    speedup: 1.2
                  - name: lstm
                    kind: crossover
                    source: test
                    spec: a100-80gb
                    dtype: fp32
                    format: csr
                    gemms:
                      - {m: 1024, k: 512, n: 64}
                      - {m: 512, k: 1024, n: 64}
                    crossoverSparsity: 0.7
                """);
        List<PublishedCases.Row> rows = PublishedCases.evaluate(f);
        assertEquals(2, rows.size());
        assertEquals("published v1.yaml", rows.get(0).group());
        assertEquals("bert-like", rows.get(0).caseName());
        assertEquals("sparsity", rows.get(1).unit());
        assertTrue(Double.isFinite(rows.get(1).error()) || Double.isNaN(rows.get(1).predictedValue()));
    }
}
