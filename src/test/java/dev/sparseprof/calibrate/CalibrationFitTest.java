package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.perfmodel.cpu.ProbedCpuFixture;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The oracle: "measured" times made by the perf model itself from known parameters (plus +-3 %
 * deterministic noise); the fit, started from the preset, must recover them and cut the held-out
 * error.
 */
class CalibrationFitTest {
    static final CpuSpec PRESET = (CpuSpec) HardwareSpecs.load("epyc-zen5-2c");

    static Model model() {
        List<GemmLayer> layers = new ArrayList<>();
        // The last two hold all their largest weights in row 0: pruned, one row is the whole layer and
        // two threads are as unbalanced as they can be (the imbalance penalty's evidence).
        int[][] shapes = {{96, 96}, {96, 96}, {96, 96}, {96, 96}, {384, 96}, {384, 96}, {96, 384}, {96, 384}, {4, 384}, {4, 384}};
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < shapes.length; i++) {
            float[] w = new float[shapes[i][0] * shapes[i][1]];
            for (int j = 0; j < w.length; j++) w[j] = (float) (rnd.nextDouble() - 0.5) * (shapes[i][0] == 4 && j < shapes[i][1] ? 1000 : 1);
            layers.add(new GemmLayer("layer" + i, "w" + i, LayerKind.LINEAR, shapes[i][0], shapes[i][1], 1,
                    MatrixView.of(shapes[i][0], shapes[i][1], w)));
        }
        return new Model("test-model", "test", List.of(), layers, Map.of(), null);
    }

    /** Runs of every layer x {dense, csr} x batch {8, 64} x threads {1, 2}, timed by {@code truth}. */
    static MeasuredRuns measured(Model model, CpuParameters truth, double noise) {
        return measured(model, truth, noise, List.of("dense", "csr"));
    }

    /** As above, for {@code formats}. */
    static MeasuredRuns measured(Model model, CpuParameters truth, double noise, List<String> formats) {
        List<MeasuredRun> placeholder = new ArrayList<>();
        for (GemmLayer l : model.layers()) {
            long nnz = Math.round(l.rows() * (double) l.cols() * 0.1);
            for (String f : formats) {
                for (int n : new int[] {8, 64}) {
                    for (int t = 1; t <= 2; t++) placeholder.add(new MeasuredRun(l.name(), f, n, t, l.rows(), l.cols(), nnz, 0.9, 1));
                }
            }
        }
        MeasuredRuns p = new MeasuredRuns("m.json", "test-model", "test", "2026-12-02", "test", "cpu", placeholder);
        List<CalibrationCase> cases = CalibrationCases.of(p, model);
        double[] times = CalibrationFit.predictAll(truth, cases);
        SplittableRandom rnd = new SplittableRandom(5);
        List<MeasuredRun> runs = new ArrayList<>();
        for (int i = 0; i < times.length; i++) {
            CalibrationCase c = cases.get(i);
            MeasuredRun r = c.run();
            long nnz = c.workload().nnz();
            // The threads' own imbalance: the schedule's factor as the truth weighs it, plus up to 1 % of noise.
            CpuSpec spec = truth.spec(r.threads());
            double imbalance = spec.overheads().penalizedImbalance(c.format().plan(c.workload(), spec).balance().factor())
                    + (r.threads() > 1 ? 0.01 * noise / 0.03 * rnd.nextDouble() : 0);
            runs.add(new MeasuredRun(r.layer(), r.format(), r.batch(), r.threads(), r.rows(), r.cols(), nnz, r.sparsity(),
                    times[i] * (1 + noise * (2 * rnd.nextDouble() - 1)), Double.NaN, imbalance));
        }
        return new MeasuredRuns("m.json", "test-model", "test", "2026-12-02", "test", "cpu", runs);
    }

    static CpuParameters truth() {
        CpuParameters p = CpuParameters.of(PRESET);
        return p.with(FitParameter.DRAM_BANDWIDTH, p.get(FitParameter.DRAM_BANDWIDTH) * 0.4)
                .with(FitParameter.PER_ROW_CYCLES, 40)
                .with(FitParameter.PER_NNZ_CYCLES, 3)
                .with(FitParameter.LAUNCH_SECONDS, 20e-6);
    }

    @Test
    void eachCaseIsPredictedInTheCacheStateOfItsMeasureRound() {
        CpuParameters probed = CpuParameters.of(ProbedCpuFixture.cpu(512, "0.5"));
        float[] w = new float[1536 * 384];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int j = 0; j < w.length; j++) w[j] = (float) (rnd.nextDouble() - 0.5);
        Model model = new Model("test-model", "test", List.of(),
                List.of(new GemmLayer("ffn", "w", LayerKind.LINEAR, 1536, 384, 1, MatrixView.of(1536, 384, w))), Map.of(), null);
        // one round of 1 thread: dense's weights (2.4 MB) alone pass the 2 MiB L2, csr's and coo's
        // (90 % pruned) fit it alone but not after dense and each other
        List<MeasuredRun> round = new ArrayList<>();
        for (String f : List.of("dense", "csr", "coo")) round.add(new MeasuredRun("ffn", f, 32, 1, 1536, 384, 58982, 0.9, 1));
        List<CalibrationCase> cases = CalibrationCases.of(new MeasuredRuns("m.json", "test-model", "test", "2026-12-06", "test", "cpu", round), model);
        double[] inTurn = CalibrationFit.predictAll(probed, cases);
        for (int i = 0; i < cases.size(); i++) {
            CalibrationCase c = cases.get(i);
            double alone = CalibrationFit.predictAll(probed, List.of(c))[0]; // a round of its own: back-to-back calls
            if (c.format().name().equals("dense")) assertEquals(alone, inTurn[i], 1e-15, "dense reads from L3 either way");
            else assertTrue(inTurn[i] > alone, c.run().key() + ": in turn " + inTurn[i] + ", alone " + alone);
        }
        // a second file of the same round repeats its formats: each is counted once
        List<CalibrationCase> twice = new ArrayList<>(cases);
        twice.addAll(cases);
        double[] repeated = CalibrationFit.predictAll(probed, twice);
        for (int i = 0; i < cases.size(); i++) assertEquals(inTurn[i], repeated[i], 0);
    }

    @Test
    void theFitRecoversKnownParametersAndCutsTheHeldOutError() {
        Model model = model();
        List<CalibrationCase> cases = CalibrationCases.of(measured(model, truth(), 0.03), model);
        CalibrationResult r = CalibrationFit.fit(PRESET, cases);
        assertEquals(cases.size() / 2, r.count(false), "layers alternate within each shape");
        double before = r.mape(false, false);
        double after = r.mape(false, true);
        assertTrue(after < 5, "held-out MAPE after the fit " + after + " (before " + before + ")");
        assertTrue(after < before / 3, "before " + before + ", after " + after);
        assertEquals(20e-6, r.after().get(FitParameter.LAUNCH_SECONDS), 4e-6);
        assertTrue(r.fitted().contains(FitParameter.PER_ROW_CYCLES), r.fitted().toString());
    }

    @Test
    void aBandwidthTheRunsDoNotBindKeepsItsStartInsteadOfGrowingWithoutBound() {
        Model model = model();
        // Runs timed as if the L2 cost nothing: the best fit would send the L2 bandwidth to its clamp.
        CpuParameters free = truth().with(FitParameter.L2_BANDWIDTH, CpuParameters.of(PRESET).get(FitParameter.L2_BANDWIDTH) * 1e12);
        List<CalibrationCase> cases = CalibrationCases.of(measured(model, free, 0.01), model);
        CalibrationResult r = CalibrationFit.fit(PRESET, cases);
        assertTrue(r.unbounded().contains(FitParameter.L2_BANDWIDTH), "unbounded " + r.unbounded() + ", fitted " + r.fitted());
        assertFalse(r.fitted().contains(FitParameter.L2_BANDWIDTH), r.fitted().toString());
        assertEquals(CpuParameters.of(PRESET).get(FitParameter.L2_BANDWIDTH), r.after().get(FitParameter.L2_BANDWIDTH), 1.0);
        for (FitParameter f : r.fitted()) {
            double ratio = r.after().get(f) / Math.max(1e-300, r.before().get(f));
            assertTrue(r.after().get(f) == 0 || ratio < CalibrationFit.UNBOUNDED, f.label() + " moved by " + ratio);
        }
    }

    /**
     * A level beyond the L1 fitted faster than the L1 reads is no bandwidth either: kept at its start
     * even where the fit stops far short of a million times it (the runs timed with the L2 a thousand
     * times its start, above the preset's L1).
     */
    @Test
    void aBandwidthFittedFasterThanTheL1IsKeptAtItsStart() {
        Model model = model();
        CpuParameters start = CpuParameters.of(PRESET);
        double l2 = start.get(FitParameter.L2_BANDWIDTH) * 1e3;
        assertTrue(l2 > start.get(FitParameter.L1_BANDWIDTH), "the test's L2 must pass the L1");
        List<CalibrationCase> cases = CalibrationCases.of(measured(model, truth().with(FitParameter.L2_BANDWIDTH, l2), 0.01), model);
        CalibrationResult r = CalibrationFit.fit(PRESET, cases);
        assertFalse(r.fitted().contains(FitParameter.L2_BANDWIDTH), "fitted " + r.fitted() + ", unbounded " + r.unbounded());
        assertTrue(r.after().get(FitParameter.L2_BANDWIDTH) <= CalibrationFit.ceiling(FitParameter.L2_BANDWIDTH, start));
        assertEquals(start.get(FitParameter.L1_BANDWIDTH), CalibrationFit.ceiling(FitParameter.L2_BANDWIDTH, start), 1.0);
        assertEquals(start.get(FitParameter.L1_BANDWIDTH) * CalibrationFit.UNBOUNDED, CalibrationFit.ceiling(FitParameter.L1_BANDWIDTH, start), 1.0);
    }

    @Test
    void forkJoinAndTheImbalancePenaltyAreRecoveredFromTwoThreadRuns() {
        Model model = model();
        CpuParameters truth = truth().with(FitParameter.FORK_JOIN_SECONDS, 8e-6).with(FitParameter.IMBALANCE_PENALTY, 3);
        CalibrationResult r = CalibrationFit.fit(PRESET, CalibrationCases.of(measured(model, truth, 0.0), model));
        assertTrue(r.imbalance().determined(), r.imbalance().toString());
        assertTrue(r.imbalance().modelledMax() > 1.5, "the skewed layers' schedules: " + r.imbalance());
        assertTrue(r.fitted().contains(FitParameter.FORK_JOIN_SECONDS), r.fitted().toString());
        assertTrue(r.fitted().contains(FitParameter.IMBALANCE_PENALTY), r.fitted().toString());
        assertEquals(8e-6, r.after().get(FitParameter.FORK_JOIN_SECONDS), 0.5e-6);
        assertEquals(3, r.after().get(FitParameter.IMBALANCE_PENALTY), 1e-6, "no noise: the line is exact");
        CalibrationResult noisy = CalibrationFit.fit(PRESET, CalibrationCases.of(measured(model, truth, 0.03), model));
        assertEquals(3, noisy.after().get(FitParameter.IMBALANCE_PENALTY), 0.1);
        assertEquals(0.005, noisy.imbalance().noise(), 0.004, "the intercept takes the noise");
        SpecOverlay o = CalibratedOverlay.checked(CalibratedOverlay.of(r, "epyc-zen5-2c", List.of("test")), r, null);
        CpuSpec loaded = (CpuSpec) o.check();
        assertEquals(r.after().get(FitParameter.IMBALANCE_PENALTY), loaded.overheads().imbalancePenalty(), 1e-5);
        assertEquals(r.after().get(FitParameter.FORK_JOIN_SECONDS), loaded.overheads().forkJoinSeconds(), 1e-11);
    }

    @Test
    void oneThreadRunsLeaveForkJoinAndTheImbalancePenaltyAsTheyWere() {
        Model model = model();
        List<MeasuredRun> one = new ArrayList<>();
        for (MeasuredRun run : measured(model, truth(), 0.0).runs()) if (run.threads() == 1) one.add(run);
        CalibrationResult r = CalibrationFit.fit(PRESET, CalibrationCases.of(
                new MeasuredRuns("m.json", "test-model", "test", "2026-12-02", "test", "cpu", one), model));
        assertTrue(r.undetermined().contains(FitParameter.FORK_JOIN_SECONDS), r.undetermined().toString());
        assertTrue(r.undetermined().contains(FitParameter.IMBALANCE_PENALTY), r.undetermined().toString());
        assertEquals(PRESET.overheads().imbalancePenalty(), r.after().get(FitParameter.IMBALANCE_PENALTY));
    }

    @Test
    void theOverlayLoadsBackToTheFittedValues() {
        Model model = model();
        CalibrationResult r = CalibrationFit.fit(PRESET, CalibrationCases.of(measured(model, truth(), 0.0), model));
        SpecOverlay o = CalibratedOverlay.checked(CalibratedOverlay.of(r, "epyc-zen5-2c", List.of("test")), r, null);
        CpuSpec loaded = (CpuSpec) o.check();
        assertEquals(r.after().get(FitParameter.LAUNCH_SECONDS), loaded.overheads().launchSeconds(), 1e-9);
        assertTrue(o.toYaml().contains("preset: epyc-zen5-2c"));
    }

    @Test
    void badInputIsOneClearLine() {
        Model model = model();
        MeasuredRuns foreign = new MeasuredRuns("m.json", "other", "x", "d", "c", "cpu",
                List.of(new MeasuredRun("encoder.layer.0.query", "csr", 8, 1, 96, 96, 900, 0.9, 1e-5)));
        var e = assertThrows(SparseprofException.class, () -> CalibrationCases.of(foreign, model));
        assertTrue(e.getMessage().contains("not in test-model"), e.getMessage());
        MeasuredRuns tooFew = new MeasuredRuns("m.json", "test-model", "x", "d", "c", "cpu",
                List.of(new MeasuredRun("layer0", "csr", 8, 1, 96, 96, 922, 0.9, 1e-5)));
        e = assertThrows(SparseprofException.class, () -> CalibrationFit.fit(PRESET, CalibrationCases.of(tooFew, model)));
        assertTrue(e.getMessage().contains("training runs for"), e.getMessage());
        MeasuredRuns wide = new MeasuredRuns("m.json", "test-model", "x", "d", "c", "cpu",
                List.of(new MeasuredRun("layer0", "dense", 8, 64, 96, 96, 922, 0.9, 1e-5)));
        e = assertThrows(SparseprofException.class, () -> CalibrationFit.fit(PRESET, CalibrationCases.of(wide, model)));
        assertTrue(e.getMessage().contains("64 threads"), e.getMessage());
        MeasuredRuns unknown = new MeasuredRuns("m.json", "test-model", "x", "d", "c", "cpu",
                List.of(new MeasuredRun("layer0", "hyper", 8, 1, 96, 96, 922, 0.9, 1e-5)));
        e = assertThrows(SparseprofException.class, () -> CalibrationCases.of(unknown, model));
        assertTrue(e.getMessage().contains("has a performance model"), e.getMessage());
        assertEquals(Map.of("hyper", 1), CalibrationCases.unmodelled(unknown));
        MeasuredRuns wrongNnz = new MeasuredRuns("m.json", "test-model", "x", "d", "c", "cpu",
                List.of(new MeasuredRun("layer0", "csr", 8, 1, 96, 96, 5000, 0.9, 1e-5)));
        e = assertThrows(SparseprofException.class, () -> CalibrationCases.of(wrongNnz, model));
        assertTrue(e.getMessage().contains("pruned differently"), e.getMessage());
    }

    @Test
    void eachFormatsDecodeCyclesAreRecoveredAndWrittenToTheOverlay() {
        Model model = model();
        CpuParameters start = CpuParameters.of(PRESET, List.of("csr", "coo"));
        CpuParameters truth = start.with(FitParameter.perNnzCycles("coo"), 12).with(FitParameter.perNnzCycles("csr"), 2)
                .with(FitParameter.DENSE_EFFICIENCY, 0.6);
        List<CalibrationCase> cases = CalibrationCases.of(measured(model, truth, 0.01, List.of("dense", "csr", "coo")), model);
        CalibrationResult r = CalibrationFit.fit(PRESET, cases, Set.of("csr", "coo"));
        assertEquals(12, r.after().get(FitParameter.perNnzCycles("coo")), 1.5);
        assertEquals(0.6, r.after().get(FitParameter.DENSE_EFFICIENCY), 0.03);
        assertTrue(r.mape(false, true) < 3, "held-out MAPE " + r.mape(false, true));
        assertEquals(PRESET.clockHertz(), r.after().get(FitParameter.CLOCK), "the clock is the probe's, not fitted");
        SpecOverlay o = CalibratedOverlay.checked(CalibratedOverlay.of(r, "epyc-zen5-2c", List.of("test")), r, null);
        CpuSpec loaded = (CpuSpec) o.check();
        assertEquals(r.after().get(FitParameter.perNnzCycles("coo")), loaded.overheads().perNnzCycles("coo"), 1e-3);
        assertEquals(PRESET.overheads().gatherCycles(), loaded.overheads().gatherCycles(), 1e-12, "unfitted terms kept");
        assertEquals(PRESET.missesInFlight(), loaded.missesInFlight());
    }

    @Test
    void parametersTheRunsCannotTellApartAreAnError() {
        // two proportional columns (as per-row and per-nnz cycles are when every row holds the same count)
        double[][] j = {{1, 2, 0.3}, {2, 4, 0.1}, {3, 6, 0.7}, {4, 8, 0.2}};
        List<FitParameter> free = List.of(FitParameter.PER_ROW_CYCLES, FitParameter.PER_NNZ_CYCLES, FitParameter.LAUNCH_SECONDS);
        var e = assertThrows(SparseprofException.class,
                () -> CalibrationFit.requireDetermined(free, new org.apache.commons.math3.linear.Array2DRowRealMatrix(j)));
        assertTrue(e.getMessage().contains("per-row-cycles, per-nnz-cycles apart"), e.getMessage());
        double[][] ok = {{1, 0, 0.3}, {0, 4, 0.1}, {3, 6, 0.7}, {4, 1, 0.2}};
        CalibrationFit.requireDetermined(free, new org.apache.commons.math3.linear.Array2DRowRealMatrix(ok));
    }

    @Test
    void theSplitAlternatesWithinEachShape() {
        Map<String, Boolean> split = CalibrationCases.split(model().layers());
        // shapes 96x96 (layers 0-3), 384x96 (4, 5), 96x384 (6, 7), 4x384 (8, 9): each shape half in, half out
        assertEquals(List.of(true, false, true, false, true, false, true, false, true, false), List.copyOf(split.values()));
    }
}
