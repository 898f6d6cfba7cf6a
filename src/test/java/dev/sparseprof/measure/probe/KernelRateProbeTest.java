package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe's arithmetic and its fallbacks, without timing anything. */
class KernelRateProbeTest {
    @Test
    void leastSquaresKeepsRatesAtZeroOrAbove() {
        // y = 2 + 3 len + 0.5 len v, exactly
        double[][] x = {{1, 16, 16}, {1, 2, 2}, {1, 16, 32}, {1, 2, 4}, {1, 16, 128}};
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) y[i] = 2 + 3 * x[i][1] + 0.5 * x[i][2];
        assertArrayEquals(new double[] {2, 3, 0.5}, KernelRateProbe.nonNegativeLeastSquares(x, y), 1e-9);
        // a negative intercept is pinned at 0 and the rest solved again
        double[] z = new double[x.length];
        for (int i = 0; i < x.length; i++) z[i] = -5 + 3 * x[i][1] + 0.5 * x[i][2];
        double[] b = KernelRateProbe.nonNegativeLeastSquares(x, z);
        assertEquals(0, b[0]);
        assertTrue(b[1] >= 0 && b[2] > 0);
    }

    @Test
    void syntheticMatricesHoldWhatTheRatesAssume() {
        assertEquals(128 * 16, nonZeros(KernelRateProbe.rowsMatrix(128, 16, 16, 1)));
        assertEquals(64 * 2, nonZeros(KernelRateProbe.rowsMatrix(64, 16, 2, 1)));
        assertEquals(128 * 16, nonZeros(KernelRateProbe.twoFour(128, 32)));
        assertEquals(10 * 16, nonZeros(KernelRateProbe.randomRows(10, 1024, 16)));
    }

    private static long nonZeros(dev.sparseprof.util.MatrixView m) {
        float[] row = new float[m.cols()];
        long n = 0;
        for (int r = 0; r < m.rows(); r++) {
            m.copyRow(r, row, 0);
            for (float v : row) if (v != 0) n++;
        }
        return n;
    }

    @Test
    void aMachineThatHidesItsCachesFallsBackToThePreset(@TempDir Path dir) throws Exception {
        CacheSizes preset = new CacheSizes(48L << 10, 2L << 20, 480L << 20, List.of(12, 16, 16), 64, false);
        CacheSizes none = CacheSizes.read(dir.resolve("absent"), preset);
        assertFalse(none.fromSysfs());
        assertEquals(preset.l2Bytes(), none.l2Bytes());
        assertEquals(preset.l3Bytes(), none.l3Bytes());
        // sysfs with only L1d: L2 and L3 from the preset
        Path idx = Files.createDirectories(dir.resolve("cache/index0"));
        Files.writeString(idx.resolve("level"), "1\n");
        Files.writeString(idx.resolve("type"), "Data\n");
        Files.writeString(idx.resolve("size"), "32K\n");
        Files.writeString(idx.resolve("ways_of_associativity"), "8\n");
        Files.writeString(idx.resolve("coherency_line_size"), "64\n");
        CacheSizes partial = CacheSizes.read(dir.resolve("cache"), preset);
        assertFalse(partial.fromSysfs());
        assertEquals(32L << 10, partial.l1dBytes());
        assertEquals(2L << 20, partial.l2Bytes());
    }
}
