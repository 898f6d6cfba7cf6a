package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import java.util.ArrayList;
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

    private static CasePrediction spread(String layer, String format, double measured, double predicted, double spreadPercent) {
        MeasuredRun r = new MeasuredRun(layer, format, 128, 1, 384, 384, 44_000, 0.7, measured, spreadPercent, 1);
        Workload w = Workload.uniformSparse(layer, 384, 384, 128, DType.F32, 0.3, false);
        return new CasePrediction(new CalibrationCase(r, w, FormatModels.byName(format), false, "magnitude"), predicted, predicted);
    }

    /**
     * A fastest-format miss is a tie the runs cannot settle when the named format measured within the
     * larger of the two runs' spread of the fastest; a wider gap, or a run without a spread, is a miss.
     */
    @Test
    void missesWithinTheRunsSpreadAreCountedAsTies() {
        List<CasePrediction> runs = List.of(
                spread("q", "dense", 100, 90, 3), spread("q", "csr", 104, 85, 5),   // csr named, 4 % slower, spread 5 %: a tie
                spread("k", "dense", 100, 90, 3), spread("k", "csr", 110, 85, 5),   // 10 % slower: a miss
                spread("v", "dense", 100, 85, 3), spread("v", "csr", 120, 90, 3),   // dense named, and fastest
                spread("o", "dense", 100, 90, Double.NaN), spread("o", "csr", 101, 85, Double.NaN)); // no spread known: a miss
        assertEquals(List.of(1, 4), List.of(PredictionErrors.bestFormatCounts(runs, false, true)[0], PredictionErrors.bestFormatCounts(runs, false, true)[1]));
        assertEquals(1, PredictionErrors.bestFormatTies(runs, false, true));
        assertEquals("; 1 of the 3 misses within the runs' spread", MeasuredValidation.ties(runs, false, PredictionErrors.bestFormatCounts(runs, false, true)));
        assertEquals("", MeasuredValidation.ties(runs.subList(4, 6), false, PredictionErrors.bestFormatCounts(runs.subList(4, 6), false, true)));
    }

    /** validate's note counts the runs timed while measure's canary read the machine slow, where it was read. */
    @Test
    void theNoteCountsRunsTimedOnASlowMachine() {
        Workload w = Workload.uniformSparse("q", 384, 384, 128, DType.F32, 0.3, false);
        List<CasePrediction> runs = new ArrayList<>();
        for (double speed : new double[] {0.99, 0.82, 0.95, Double.NaN}) {
            MeasuredRun r = new MeasuredRun("q", "dense", 128, 1, 384, 384, 44_000, 0.7, 1e-4, 4, 1, speed);
            runs.add(new CasePrediction(new CalibrationCase(r, w, FormatModels.byName("dense"), false, "magnitude"), 1e-4, 1e-4));
        }
        MeasuredRun gather = new MeasuredRun("q", "csr", 128, 1, 384, 384, 44_000, 0.7, 1e-4, 4, 1, 0.5);
        runs.add(new CasePrediction(new CalibrationCase(gather, w, FormatModels.byName("csr"), false, "magnitude"), 1e-4, 1e-4));
        assertEquals("; measured IQR/median 4.0% (median run); 1 of 3 dense/BSR runs timed with the FMA canary below 0.90 of its best",
                MeasuredValidation.spread(runs, false), "csr, which the canary does not judge, is not counted");
        assertEquals("", MeasuredValidation.spread(runs, true), "the training half is empty");
    }

    /** validate's note counts the multi-threaded runs one of whose threads the machine held back, and their error apart. */
    @Test
    void theNoteCountsRunsWithAThreadHeldBack() {
        Workload w = Workload.uniformSparse("q", 384, 384, 128, DType.F32, 0.3, false);
        List<CasePrediction> runs = new ArrayList<>();
        double[][] imbalanceAndPredicted = {{1.02, 90e-6}, {1.18, 70e-6}, {1.25, 60e-6}, {Double.NaN, 50e-6}};
        for (double[] c : imbalanceAndPredicted) {
            MeasuredRun r = new MeasuredRun("q", "dense", 128, 2, 384, 384, 44_000, 0.7, 100e-6, 4, c[0]);
            runs.add(new CasePrediction(new CalibrationCase(r, w, FormatModels.byName("dense"), false, "magnitude"), c[1], c[1]));
        }
        MeasuredRun one = new MeasuredRun("q", "csr", 128, 1, 384, 384, 44_000, 0.7, 100e-6, 4, 1.3);
        runs.add(new CasePrediction(new CalibrationCase(one, w, FormatModels.byName("csr"), false, "magnitude"), 10e-6, 10e-6));
        assertEquals("; multi-threaded runs: 2 of 3 at a measured thread imbalance above 1.10 (MAPE 35.0% against 10.0% for the rest)",
                MeasuredValidation.imbalance(runs, false), "the 1-thread run and the run without an imbalance are not counted");
        assertEquals("", MeasuredValidation.imbalance(runs.subList(0, 1), false), "none held back: nothing to say");
        assertEquals("; multi-threaded runs: 1 of 1 at a measured thread imbalance above 1.10 (MAPE 30.0%)",
                MeasuredValidation.imbalance(runs.subList(1, 2), false));
        assertEquals("", MeasuredValidation.imbalance(runs, true), "the training half is empty");
    }
}
