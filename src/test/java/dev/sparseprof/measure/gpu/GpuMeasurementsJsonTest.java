package dev.sparseprof.measure.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.Timing;
import dev.sparseprof.util.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GPU runs are written in measure's measurements JSON: its strict reader takes them, with the GPU keys beside. */
class GpuMeasurementsJsonTest {
    @Test
    void measuresReaderTakesGpuRunsAndSpeedupsCompareLikeWithLike() {
        GpuDevice h200 = new GpuDevice("NVIDIA H200", 9, 0, 132, 141L << 30, 13000);
        List<GpuCase> cases = List.of(
                new GpuCase("minilm-gpu", "ffn.up", 1536, 384, 128, GpuKernel.DENSE_MMA_F16, 0),
                new GpuCase("minilm-gpu", "ffn.up", 1536, 384, 128, GpuKernel.SPARSE24_MMA, 0),
                new GpuCase("minilm-gpu", "ffn.up", 1536, 384, 128, GpuKernel.CSR_ROWSPLIT, 0.9));
        List<GpuMeasurement> results = List.of(
                measurement(GpuKernel.DENSE_MMA_F16, 1536L * 384, 20e-6),
                measurement(GpuKernel.SPARSE24_MMA, 1536L * 384 / 2, 16e-6),
                measurement(GpuKernel.CSR_ROWSPLIT, 58982, 30e-6));
        String json = GpuMeasurementsJson.write("synthetic", h200, "2026-12-02T14:00:00Z", "sparseprof validate --gpu-measure out",
                cases, results);
        MeasurementsFile f = MeasurementsFile.parse("gpu.json", json);
        assertEquals(3, f.results().size());
        Measurement sparse = f.results().get(1);
        assertEquals("2:4", sparse.format());
        assertEquals(1.25, sparse.speedupOverDense(), 1e-9, "2:4 against the fp16 tensor-core dense kernel");
        assertTrue(Double.isNaN(f.results().get(2).speedupOverDense()), "no fp32 dense run in this set");
        assertEquals("gpu", Json.parseObject(json).get("device"));
        assertTrue(f.header().machine().startsWith("NVIDIA H200 (sm_90, 132 SMs"), f.header().machine());
    }

    private static GpuMeasurement measurement(GpuKernel k, long nnz, double seconds) {
        Timing t = new Timing(3, seconds, seconds * 0.9, seconds * 1.2, seconds * 0.95, seconds * 1.05, 1.0);
        return new GpuMeasurement(k.key(), "ffn.up", 1536, 384, nnz, 128, t, 2.0 * nnz * 128 / seconds / 1e9, 1e-4, "NVIDIA H200");
    }
}
