package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The probe's arithmetic and its fallbacks, without timing anything. */
class KernelRateProbeTest {
    @Test
    void oneSlowRoundDoesNotMoveARate() {
        // a JIT transient measured one round 30x slow: the median of the rounds is the steady rate
        assertEquals(2.5, KernelRateProbe.median(new double[] {2.5, 72.3, 2.4}));
        assertEquals(2.5, KernelRateProbe.median(new double[] {2.6, 2.4}), 1e-12);
        // the widths the probe measures are the widths the kernels dispatch (ColumnBlocks: 8, 4, 2, 1 vectors)
        org.junit.jupiter.api.Assertions.assertArrayEquals(new int[] {1, 2, 4, 8}, KernelRateProbe.WIDTHS);
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
