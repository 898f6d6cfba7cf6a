package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The errors validate reports: a machine's change of speed moves the times' MAPE, not the one relative to dense. */
class PredictionErrorsTest {
    private static CasePrediction p(String layer, String format, double measured, double predicted) {
        MeasuredRun r = new MeasuredRun(layer, format, 128, 1, 384, 384, 44_000, 0.7, measured);
        Workload w = Workload.uniformSparse(layer, 384, 384, 128, DType.F32, 0.3, false);
        return new CasePrediction(new CalibrationCase(r, w, FormatModels.byName(format), false, "magnitude"), predicted, predicted);
    }

    @Test
    void aMachineRunningAllFormatsSlowerMovesTheTimesButNotTheirRatioToDense() {
        // the runs came out 1.5x slower than the model everywhere: every time -33 %, every ratio to dense right
        List<CasePrediction> slow = List.of(p("q", "dense", 300, 200), p("q", "csr", 150, 100), p("k", "dense", 30, 20), p("k", "csr", 60, 40));
        assertEquals(100.0 / 3, PredictionErrors.mape(slow, false, true), 1e-9);
        assertEquals(0, PredictionErrors.relativeToDenseMape(slow, false, true), 1e-9);
        // csr predicted at half of dense where it measured the same: -50 % relative, one case
        List<CasePrediction> off = List.of(p("q", "dense", 100, 100), p("q", "csr", 100, 50), p("v", "csr", 10, 10));
        assertEquals(50, PredictionErrors.relativeToDenseMape(off, false, true), 1e-9);
        // no dense beside a sparse run: nothing to say
        assertTrue(Double.isNaN(PredictionErrors.relativeToDenseMape(List.of(p("v", "csr", 10, 10)), false, true)));
        assertTrue(Double.isNaN(PredictionErrors.relativeToDenseMape(off, true, true)), "the training half is empty");
    }
}
