package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.util.DType;
import org.junit.jupiter.api.Test;

/**
 * A block-quantized weight multiplied in int8 (GGUF Q4_0, MXFP4) is read as stored: a decode GEMV,
 * bound by its weight bytes, moves 4.5 bits per weight from DRAM where an int8 weight moves 8, and
 * runs faster by about that much; in another value type it weighs that type's width.
 */
class EncodedWeightBytesTest {
    @Test
    void aDecodeGemvReadsTheEncodingsBitsPerWeight() {
        Workload int8 = Workload.dense("w", 8192, 8192, 1, DType.I8);
        Workload q4 = new Workload("w", int8.stats(), 1, DType.I8, null, 1, 4.5);
        assertEquals(8192.0 * 8192 * 4.5 / 8, q4.denseWeightBytes(), 1e-6);
        assertEquals(8192.0 * 8192, int8.denseWeightBytes(), 1e-6);
        assertEquals(8192.0 * 8192 * 2, q4.withDType(DType.F16).denseWeightBytes(), 1e-6, "an fp16 what-if stores fp16");
        assertEquals(4.5, q4.withColumns(16).withRuns(0.5).weightBits(), "N and runs keep the encoding");

        PerfModel model = new PerfModel(HardwareSpecs.load("h100-sxm"), TrafficModel.ANALYTICAL);
        LayerEstimate eight = model.estimate(int8, FormatModels.byName("dense"));
        LayerEstimate four = model.estimate(q4, FormatModels.byName("dense"));
        double bytesRatio = four.predicted().traffic().dramBytes() / eight.predicted().traffic().dramBytes();
        assertEquals(4.5 / 8, bytesRatio, 0.01, "the weight is most of a GEMV's DRAM bytes");
        assertTrue(four.predictedSeconds() < 0.75 * eight.predictedSeconds(),
                four.predictedSeconds() + " s against " + eight.predictedSeconds() + " s: a weight-bound GEMV runs at the weight's bytes");
    }
}
