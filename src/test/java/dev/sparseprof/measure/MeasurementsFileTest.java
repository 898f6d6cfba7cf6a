package dev.sparseprof.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.kernel.StaticRowsPartition;
import dev.sparseprof.util.CoreAffinity;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeasurementsFileTest {
    private static final TimingConfig QUICK = new TimingConfig(1, 0.0, 3);

    private static List<Measurement> run() {
        float[] a = new float[24 * 40];
        for (int i = 0; i < a.length; i += 3) a[i] = (i + 1) * 0.01f;
        CpuMeasureRun.Layer layer = new CpuMeasureRun.Layer("fc1", MatrixView.of(24, 40, a));
        return CpuMeasureRun.measure(List.of(layer), List.of("csr"), new CpuMeasureRun.Settings(5, 2, new StaticRowsPartition(), QUICK), Progress.NONE);
    }

    @Test
    void denseIsAlwaysMeasuredFirstAndSpeedupsRefertoIt() {
        List<Measurement> results = run();
        assertEquals(List.of("dense", "csr"), results.stream().map(Measurement::format).toList());
        Measurement dense = results.get(0);
        Measurement csr = results.get(1);
        assertEquals(1.0, dense.speedupOverDense(), 1e-12);
        assertEquals(dense.medianSeconds() / csr.medianSeconds(), csr.speedupOverDense(), 1e-12);
        assertEquals(24 * 40 / 3, csr.nnz());
        assertEquals(1.0 - 1.0 / 3, csr.sparsity(), 1e-9);
        assertEquals(csr.sparsity(), dense.sparsity(), 1e-12, "dense reports the layer's sparsity too");
        assertEquals(2.0 * csr.nnz() * 5 / csr.medianSeconds() * 1e-9, csr.gflops(), 1e-9);
        assertTrue(csr.timing().imbalance() >= 1.0);
    }

    @Test
    void writesAndReadsBack(@TempDir Path dir) {
        MeasurementsFile file = new MeasurementsFile(MeasurementsHeader.now("m.onnx", "sparseprof measure --batch 5"), run());
        Path p = dir.resolve("m.json");
        file.write(p);
        MeasurementsFile back = MeasurementsFile.read(p);
        assertEquals(file.header(), back.header());
        assertEquals(file.results(), back.results());
        assertTrue(file.header().machine().endsWith("CPUs"));
    }

    @Test
    void theHeaderSaysWhichCpusTheKernelsWerePinnedToOrThatItIsNotKnown(@TempDir Path dir) throws Exception {
        MeasurementsHeader now = MeasurementsHeader.now("m", "c");
        assertEquals(Arrays.stream(CoreAffinity.pinnable()).boxed().toList(), now.pinnedCpus());
        MeasurementsHeader pinned = new MeasurementsHeader("m", "AMD EPYC, 2 CPUs", "2026-12-05T00:00:00Z", "25", "c", null, List.of(0, 1));
        String json = new MeasurementsFile(pinned, run()).toJson();
        assertEquals(List.of(0, 1), MeasurementsFile.parse("p.json", json).header().pinnedCpus());
        String before = json.replaceFirst(",\\s*\"pinnedCpus\": \\[[^\\]]*]", "");
        assertNull(MeasurementsFile.parse("old.json", before).header().pinnedCpus(), "a file written before the field: not known");
        String lying = json.replaceFirst("\"pinnedCpus\": \\[[^\\]]*]", "\"pinnedCpus\": [0, -3]");
        SparseprofException e = assertThrows(SparseprofException.class, () -> MeasurementsFile.parse("lying.json", lying));
        assertEquals("lying.json: pinnedCpus[1] must be a CPU number", e.getMessage());
    }

    @Test
    void badFilesNameTheFileAndKey(@TempDir Path dir) throws Exception {
        Path p = dir.resolve("bad.json");
        String good = new MeasurementsFile(MeasurementsHeader.now("m", "c"), run()).toJson();
        Files.writeString(p, good.replaceFirst("\"medianSeconds\"", "\"median\""));
        SparseprofException e = assertThrows(SparseprofException.class, () -> MeasurementsFile.read(p));
        assertEquals(p + ": results[0]: missing key 'medianSeconds'", e.getMessage());
        Files.writeString(p, good.replace("\"version\": 1", "\"version\": 9"));
        e = assertThrows(SparseprofException.class, () -> MeasurementsFile.read(p));
        assertEquals(p + ": version 9 (this sparseprof reads 1)", e.getMessage());
        Files.writeString(p, "{\"version\": 1,");
        assertThrows(SparseprofException.class, () -> MeasurementsFile.read(p));
    }

    @Test
    void quantilesAndImbalance() {
        assertEquals(2.5, TimingHarness.quantile(new double[] {1, 2, 3, 4}, 0.5), 1e-12);
        assertEquals(1.0, TimingHarness.quantile(new double[] {1, 2, 3, 4}, 0.0), 1e-12);
        assertEquals(1.5, TimingHarness.imbalance(new long[] {30, 10}), 1e-12);
        assertEquals(1.0, TimingHarness.imbalance(new long[] {7}), 1e-12);
    }
}
