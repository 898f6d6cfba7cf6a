package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.measure.MachineIdentity;
import dev.sparseprof.measure.Measurement;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.MeasurementsHeader;
import dev.sparseprof.measure.NoiseCriteria;
import dev.sparseprof.measure.NoiseCriterion;
import dev.sparseprof.measure.Stability;
import dev.sparseprof.measure.Timing;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** calibrate --quick's campaign and noise gate, and the refusal of another machine's runs: synthetic runs, nothing timed. */
class QuickAndMachineTest {
    private static MeasurementsFile file(int noisy, int quiet, double spread) {
        List<Measurement> ms = new ArrayList<>();
        for (int i = 0; i < noisy + quiet; i++) {
            double q = spread / 2;
            Timing t = new Timing(11, 1e-3, 0.9e-3, 1.3e-3, (1 - q) * 1e-3, (1 + q) * 1e-3, 1.0);
            Stability s = i < noisy ? new Stability(true, 30, 3, true, "IQR 30% of median") : new Stability(true, 30, 1, false, "");
            ms.add(new Measurement("l" + i, "csr", 32, 1, "nnz", 8, 8, 10, 0.8, t, 1, 1, 1, s));
        }
        return new MeasurementsFile(new MeasurementsHeader("m", "cpu, 2 CPUs", "d", "25", "c"), ms);
    }

    @Test
    void tooNoisyRunsAreNamedAndQuietOnesPass() {
        NoiseCriteria n = NoiseCriteria.DEFAULT;
        assertEquals("", QuickCampaign.tooNoisy(List.of(file(2, 18, 0.04)), n));
        String many = QuickCampaign.tooNoisy(List.of(file(8, 12, 0.04)), n);
        assertTrue(many.startsWith("8 of 20 cases noisy after 2 re-runs (at most 25% allowed; by criterion: IQR 8)"), many);
        String wide = QuickCampaign.tooNoisy(List.of(file(0, 20, 0.3)), n);
        assertTrue(wide.contains("median IQR/median 30.0%"), wide);
    }

    /** Cases noisy only by the FMA canary do not stop the fit: they are left out of it, and a refusal says how many there were. */
    @Test
    void casesTimedWhileTheCanaryReadLowAreLeftOutNotCounted() {
        Timing t = new Timing(11, 1e-3, 0.98e-3, 1.05e-3, 0.99e-3, 1.01e-3, 1.0);
        List<Measurement> ms = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Stability s = i < 8 ? new Stability(true, 30, 3, true, "FMA canary at 0.57 of its best", 55.0, 0.57)
                    : new Stability(true, 30, 1, false, "", 96.0, 1.0);
            ms.add(new Measurement("l" + i, i < 8 ? "dense" : "csr", 32, 1, "nnz", 8, 8, 10, 0.8, t, 1, 1, 1, s));
        }
        MeasurementsFile f = new MeasurementsFile(new MeasurementsHeader("m", "cpu, 2 CPUs", "d", "25", "c"), ms);
        assertEquals("", QuickCampaign.tooNoisy(List.of(f), NoiseCriteria.DEFAULT), "8 of 20 slow, none noisy otherwise");
        assertEquals(8, QuickCampaign.timedSlow(List.of(f)));
        List<MeasurementsFile> fit = QuickCampaign.fitCases(List.of(f));
        assertEquals(12, fit.get(0).results().size());
        assertTrue(fit.get(0).results().stream().allMatch(m -> m.format().equals("csr")));
        ms.set(8, ms.get(8).withStability(new Stability(true, 30, 3, true, "IQR 30% of median")));
        for (int i = 9; i < 14; i++) ms.set(i, ms.get(i).withStability(new Stability(true, 30, 3, true, "IQR 30% of median")));
        String refused = QuickCampaign.tooNoisy(List.of(new MeasurementsFile(f.header(), ms)), NoiseCriteria.DEFAULT);
        assertTrue(refused.startsWith("6 of 20 cases noisy after 2 re-runs (at most 25% allowed; by criterion: IQR 6)"), refused);
        assertTrue(refused.endsWith("; 8 more timed while the FMA canary read low (left out of the fit)"), refused);
    }

    @Test
    void aReasonInAnOlderFileNamesItsCriterion() {
        assertEquals(NoiseCriterion.IQR, new Stability(true, 1, 1, true, "IQR 30% of median").criterion());
        assertEquals(NoiseCriterion.RANGE, new Stability(true, 1, 1, true, "max/min 3.20").criterion());
        assertEquals(NoiseCriterion.CANARY, new Stability(true, 1, 1, true, "FMA canary at 0.57 of its best").criterion());
        assertEquals(NoiseCriterion.PAGE_FAULTS, new Stability(true, 1, 1, true, "page faults 3.8 per run (fresh heap pages)").criterion());
        assertEquals(NoiseCriterion.OTHER, new Stability(true, 1, 1, true, "a reason of another build").criterion());
        assertEquals(NoiseCriterion.NONE, new Stability(true, 1, 1, false, "").criterion());
    }

    @Test
    void theCampaignSeesEveryRateFromTwoSides() {
        List<QuickCampaign.Config> two = QuickCampaign.configs(2);
        assertEquals(12, two.size());
        assertEquals(6, QuickCampaign.configs(1).size());
        assertTrue(two.stream().anyMatch(c -> c.pruning().equals("2:4") && c.threads() == 2 && c.batch() == 128));
        assertTrue(two.get(0).command().contains("--sparsity 0.7 --batch 32 --threads 1"), two.get(0).command());
        assertTrue(two.stream().filter(c -> c.pruning().equals("2:4")).allMatch(c -> c.command().contains("--nm 2:4")),
                "CalibrationCases reads the 2:4 pruning from the command");
    }

    @Test
    void theCampaignTakesGemmLayersOnly() {
        Model m = Models.openDefault();
        List<GemmLayer> layers = QuickCampaign.layers(m);
        assertFalse(layers.isEmpty());
        for (GemmLayer l : layers) {
            assertTrue(l.kind() != LayerKind.EMBEDDING_GATHER, l.name());
            assertFalse(l.name().contains("embeddings"), l.name());
        }
    }

    @Test
    void anotherMachinesRunsAreRefusedByName(@TempDir Path dir) throws IOException {
        Path amd = dir.resolve("amd.yaml");
        Files.writeString(amd, "version: 1\npreset: " + Path.of(CalibrateValidateCommandsTest.PROBE).toAbsolutePath()
                + "\ncpu:\n  model: \"AMD EPYC 7B13 64-Core Processor\"\n");
        Path out = dir.resolve("o.yaml");
        CalibrateValidateCommandsTest.Run r = CalibrateValidateCommandsTest.run("calibrate", "--hw", amd.toString(), "--measurements",
                CalibrateValidateCommandsTest.MEASURED, "--out", out.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("measured on Intel(R) Xeon(R) Processor") && r.err().contains("AMD EPYC 7B13"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        CalibrateValidateCommandsTest.Run q = CalibrateValidateCommandsTest.run("calibrate", "--quick", "--hw", amd.toString(),
                "--out", out.toString());
        assertEquals(2, q.code(), q.err());
        assertTrue(q.err().contains("probed on AMD EPYC 7B13") && q.err().contains("probe it first"), q.err());
        assertFalse(Files.exists(out), "no spec written");
        MeasuredRuns runs = MeasuredRuns.read(Path.of(CalibrateValidateCommandsTest.MEASURED));
        assertEquals(new MachineIdentity("Intel(R) Xeon(R) Processor", 2, 512), runs.identity());
    }
}
