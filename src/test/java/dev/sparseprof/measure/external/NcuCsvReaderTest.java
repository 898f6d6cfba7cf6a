package dev.sparseprof.measure.external;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class NcuCsvReaderTest {
    private static NcuReport fixture(String name) {
        return NcuCsvReader.read(Path.of("src/test/resources/ncu", name));
    }

    @Test
    void currentLayoutWithRawMetrics() {
        NcuReport r = fixture("spmm-metrics.csv");
        assertEquals(2, r.launches().size());
        NcuLaunch csr = r.launches().get(0);
        assertEquals("(128, 1, 1)", csr.blockSize());
        assertEquals(1234567, csr.metrics().get("lts__t_sectors_op_read.sum").value());
        List<NcuKernelSummary> s = r.summaries();
        NcuKernelSummary a = s.get(0);
        assertEquals("csr_spmm_rowsplit", a.kernelName());
        assertEquals(41.27, a.l1HitPercent().getAsDouble());
        assertEquals(78.90, a.l2HitPercent().getAsDouble());
        assertEquals(1.57e6 + 393.22e3, a.dramBytes().getAsDouble(), 1e-3);
        assertEquals(63.52, a.achievedOccupancyPercent().getAsDouble());
        assertEquals(12.35e-6, a.durationSeconds().getAsDouble(), 1e-15);
        NcuKernelSummary g = s.get(1);
        assertEquals(1, g.id());
        assertTrue(g.l1HitPercent().isEmpty(), "n/a is no number");
        assertEquals(3145.73e6, g.dramBytes().getAsDouble(), 1, "thousands separator stripped, n/a write left out");
        assertEquals(1.02e-3, g.durationSeconds().getAsDouble(), 1e-12);
    }

    @Test
    void olderLayoutWithKernelTimeAndSectionLabels() {
        NcuKernelSummary s = fixture("old-kernel-time.csv").summaries().get(0);
        assertEquals("CudaSpmmKernel", s.kernelName());
        assertEquals(48.16e-6, s.durationSeconds().getAsDouble(), 1e-15);
        assertEquals(55.01, s.l1HitPercent().getAsDouble());
        assertEquals(71.40, s.l2HitPercent().getAsDouble());
        assertEquals(47.22, s.achievedOccupancyPercent().getAsDouble());
        assertTrue(s.dramBytes().isEmpty());
        NcuMetric text = fixture("old-kernel-time.csv").launches().get(0).metrics().get("Function Cache Configuration");
        assertEquals("CachePreferNone", text.text());
        assertTrue(Double.isNaN(text.value()));
    }

    @Test
    void ruleRowsAreSkipped() {
        NcuReport r = fixture("with-rules.csv");
        assertEquals(1, r.launches().size());
        assertEquals(2, r.launches().get(0).metrics().size());
        assertEquals(8.96e-6, r.summaries().get(0).durationSeconds().getAsDouble(), 1e-15);
        assertEquals(24.80, r.summaries().get(0).achievedOccupancyPercent().getAsDouble());
    }

    @Test
    void perKernelSummaryUsesTheAverage() {
        NcuKernelSummary s = fixture("summary-per-kernel.csv").summaries().get(0);
        assertEquals(-1, s.id());
        assertEquals(21.04e-6, s.durationSeconds().getAsDouble(), 1e-15);
        assertEquals(2.11e6, s.dramBytes().getAsDouble(), 1e-6);
    }

    @Test
    void columnsGoByHeaderName() {
        NcuKernelSummary s = fixture("reordered-columns.csv").summaries().get(0);
        assertEquals(3, s.id());
        assertEquals(78.90, s.l2HitPercent().getAsDouble());
        assertEquals(12.35e-6, s.durationSeconds().getAsDouble(), 1e-15);
    }

    @Test
    void numbersInCells() {
        assertEquals(1234567.5, NcuCsvReader.number("1,234,567.5"));
        assertTrue(Double.isNaN(NcuCsvReader.number("n/a")));
        assertTrue(Double.isNaN(NcuCsvReader.number("1,23")), "not a thousands pattern");
        assertEquals(-3, NcuCsvReader.number("-3"));
    }

    @Test
    void badInputNamesTheFileAndLine() {
        var e = assertThrows(ExternalFormatException.class, () -> NcuCsvReader.parse("k.csv", "==PROF== nothing\n"));
        assertTrue(e.getMessage().startsWith("k.csv: empty"), e.getMessage());
        e = assertThrows(ExternalFormatException.class, () -> NcuCsvReader.parse("k.csv", "\"a\",\"b\"\n1,2\n"));
        assertTrue(e.getMessage().startsWith("k.csv:1: not an ncu --csv header"), e.getMessage());
        e = assertThrows(ExternalFormatException.class,
                () -> NcuCsvReader.parse("k.csv", "\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n\"k\",\"m\"\n"));
        assertTrue(e.getMessage().startsWith("k.csv:2: row has 2 fields"), e.getMessage());
        e = assertThrows(ExternalFormatException.class,
                () -> NcuCsvReader.parse("k.csv", "\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n\"k\",\"m\",\"1\n"));
        assertTrue(e.getMessage().contains("not closed"), e.getMessage());
        e = assertThrows(ExternalFormatException.class,
                () -> NcuCsvReader.parse("k.csv", "\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n"));
        assertTrue(e.getMessage().contains("no kernel launches"), e.getMessage());
    }
}
