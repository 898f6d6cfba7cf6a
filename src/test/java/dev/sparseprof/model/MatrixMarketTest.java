package dev.sparseprof.model;

import static dev.sparseprof.model.OnnxReaderTest.assertFault;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixMarketTest {
    @TempDir Path dir;

    private float[] dense(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        try (Model m = Models.open(f)) {
            assertEquals(1, m.layers().size());
            return m.layers().get(0).matrix().toDense();
        }
    }

    @Test
    void coordinateRealIntegerPatternGeneralAndSymmetric() throws IOException {
        assertArrayEquals(new float[] {0, 2.5f, 0, -1, 0, 0},
                dense("a.mtx", "%%MatrixMarket matrix coordinate real general\n% comment\n2 3 2\n1 2 2.5\n2 1 -1\n"));
        assertArrayEquals(new float[] {3, 0, 0, 7},
                dense("b.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 3\n2 2 7"));
        assertArrayEquals(new float[] {0, 1, 1, 1},
                dense("c.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n2 2\n"));
        assertArrayEquals(new float[] {0, -4, 4, 0},
                dense("d.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 4\n"));
    }

    @Test
    void arrayGeneralAndSymmetricAreColumnMajor() throws IOException {
        assertArrayEquals(new float[] {1, 3, 2, 4}, dense("e.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"));
        assertArrayEquals(new float[] {1, 2, 2, 3}, dense("f.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n"));
    }

    @Test
    void lyingOrBrokenFilesNameTheLine() throws IOException {
        Path f = dir.resolve("bad.mtx");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 2\n% a long comment line\n");
        assertFault(f, "line 5: only 2 of the 4 entries");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n2 2 2\n");
        assertFault(f, "line 2: size line claims 4 entries, the 12 bytes left hold at most 3");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n1000000 1000000 100000000\n1 1 1\n");
        assertFault(f, "line 2: size line claims 100000000 entries");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n");
        assertFault(f, "line 3: row index 3 outside 1..2");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n");
        assertFault(f, "line 3: bad value 'x'");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n");
        assertFault(f, "line 4: more entries");
        Files.writeString(f, "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n");
        assertFault(f, "line 1: unsupported field 'complex'");
        Files.writeString(f, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n%\n");
        assertFault(f, "line 6: only part");
        Files.writeString(f, "hello\n");
        assertFault(f, "line 1: not a Matrix Market file");
        Files.writeString(f, "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n");
        assertFault(f, "must be square");
    }
}
