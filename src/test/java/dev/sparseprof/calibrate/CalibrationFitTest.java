package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        int[][] shapes = {{96, 96}, {96, 96}, {96, 96}, {96, 96}, {384, 96}, {384, 96}, {96, 384}, {96, 384}};
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < shapes.length; i++) {
            float[] w = new float[shapes[i][0] * shapes[i][1]];
            for (int j = 0; j < w.length; j++) w[j] = (float) (rnd.nextDouble() - 0.5);
            layers.add(new GemmLayer("layer" + i, "w" + i, LayerKind.LINEAR, shapes[i][0], shapes[i][1], 1,
                    MatrixView.of(shapes[i][0], shapes[i][1], w)));
        }
        return new Model("test-model", "test", List.of(), layers, Map.of(), null);
    }

    /** Runs of every layer x {dense, csr} x batch {8, 64} x threads {1, 2}, timed by {@code truth}. */
    static MeasuredRuns measured(Model model, CpuParameters truth, double noise) {
        List<MeasuredRun> placeholder = new ArrayList<>();
        for (GemmLayer l : model.layers()) {
            long nnz = Math.round(l.rows() * (double) l.cols() * 0.1);
            for (String f : List.of("dense", "csr")) {
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
            MeasuredRun r = cases.get(i).run();
            long nnz = cases.get(i).workload().nnz();
            runs.add(new MeasuredRun(r.layer(), r.format(), r.batch(), r.threads(), r.rows(), r.cols(), nnz, r.sparsity(),
                    times[i] * (1 + noise * (2 * rnd.nextDouble() - 1))));
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
    void theSplitAlternatesWithinEachShape() {
        Map<String, Boolean> split = CalibrationCases.split(model().layers());
        // shapes 96x96 (layers 0-3), 384x96 (4, 5), 96x384 (6, 7): each shape half in, half out
        assertEquals(List.of(true, false, true, false, true, false, true, false), List.copyOf(split.values()));
    }
}
