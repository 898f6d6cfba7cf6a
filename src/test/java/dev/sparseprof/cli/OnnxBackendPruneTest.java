package dev.sparseprof.cli;

import static dev.sparseprof.cli.ModelCommandsTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sparseprof.cli.ModelCommandsTest.Result;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code prune --sparsity 0.5} of every model of the ONNX backend test data with a GEMM layer
 * (Debian's libonnx-testdata, which test.sh unpacks; the list in
 * src/test/resources/onnx-backend-test-data.tsv): each comes back as ONNX whose layers hold exactly
 * half their non-zeros (or all they had), with its graph; the two whose only layer is an embedding
 * are refused in one line. (Checked once beside this with onnx 1.12's {@code checker.check_model}
 * and {@code numpy_helper}: every pruned file passes, its graph's nodes are unchanged and every
 * surviving and untouched weight keeps its value; docs/models.md.)
 */
class OnnxBackendPruneTest {
    static final Path DATA = Path.of("target/debian/libonnx-testdata/usr/share/libonnx-testdata/data");

    @TempDir Path dir;

    @Test
    void everyModelWithAGemmLayerPrunesToExactlyHalf() throws IOException {
        assumeTrue(Files.isDirectory(DATA), "libonnx-testdata absent (./test.sh unpacks the Debian package into target/debian)");
        List<String> models = Files.readAllLines(Path.of("src/test/resources/onnx-backend-test-data.tsv")).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split("\t")[0]).toList();
        int pruned = 0;
        for (String name : models) {
            Path source = DATA.resolve(name);
            Path out = dir.resolve(name.replace('/', '_'));
            Result r = run("prune", source.toString(), "--sparsity", "0.5", "--out", out.toString());
            if (name.contains("Embedding")) {
                assertEquals(2, r.code(), name + ": " + r.err());
                assertTrue(r.err().contains("no linear or conv layers to prune"), r.err());
                assertEquals(1, r.err().strip().lines().count(), r.err());
                continue;
            }
            assertEquals(0, r.code(), name + ": " + r.err());
            try (Model a = Models.open(source); Model b = Models.open(out)) {
                assertEquals(a.layers().size(), b.layers().size(), name);
                for (int i = 0; i < a.layers().size(); i++) {
                    GemmLayer before = a.layers().get(i);
                    GemmLayer after = b.layers().get(i);
                    assertEquals(before.name(), after.name(), name);
                    long had = nonZeros(before);
                    assertEquals(Math.min(had, before.params() - before.params() / 2), nonZeros(after), name + " " + after.name());
                }
            }
            pruned++;
        }
        assertEquals(32, pruned);
    }

    private static long nonZeros(GemmLayer l) {
        long n = 0;
        for (float v : l.matrix().toDense()) n += v != 0 ? 1 : 0;
        return n;
    }
}
