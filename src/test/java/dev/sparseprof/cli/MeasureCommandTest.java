package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.measure.MeasurementsFile;
import java.io.PrintWriter;
import java.io.StringWriter;
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
        };
        String[] expected = {"--batch must be positive, got 0", "unknown format 'csx'", "--layers: no layer 'fc9'", "unknown partition 'zigzag'"};
        for (int i = 0; i < cases.length; i++) {
            Run r = run(cases[i]);
            assertEquals(2, r.code(), String.join(" ", cases[i]) + ": " + r.err());
            assertTrue(r.err().contains(expected[i]), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }
}
