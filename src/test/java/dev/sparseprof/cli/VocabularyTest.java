package dev.sparseprof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One vocabulary in every command: the model positionally or as --model, one name per layer in
 * every output and input, one format registry with one-line answers where a command cannot take a
 * format, preset names that match the spec files, and default tables that fit 120 columns.
 */
class VocabularyTest {
    private static MeasureCommandTest.Run run(String... args) {
        return MeasureCommandTest.run(args);
    }

    private static void oneLine(MeasureCommandTest.Run r, String... parts) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        for (String p : parts) assertTrue(r.err().contains(p), p + " in: " + r.err());
    }

    private static void fits(String text) {
        for (String line : text.split("\n")) {
            assertTrue(line.length() <= 120, "wider than 120 (" + line.length() + "): " + line);
            assertFalse(line.endsWith(" "), "ends in a space: '" + line + "'");
        }
    }

    @Test
    void theModelIsPositionalOrAnOptionInEveryModelCommand() {
        MeasureCommandTest.Run positional = run("simulate", "--hw", "a100-80gb", "minilm", "--traffic", "analytical", "--json", "-");
        assertEquals(0, positional.code(), positional.err());
        MeasureCommandTest.Run option = run("simulate", "--hw", "a100-80gb", "--model", "minilm", "--traffic", "analytical", "--json", "-");
        assertEquals(positional.out(), option.out());
        for (String command : List.of("profile", "formats", "prune", "trace", "simulate", "compare", "measure", "calibrate")) {
            String help = run(command, "--help").out();
            assertTrue(help.contains("[MODEL]") && help.contains("--model=MODEL"), command + ": " + help);
        }
        oneLine(run("profile", "minilm", "--model", "minilm-int8"), "MODEL 'minilm' and --model 'minilm-int8' name two models");
    }

    @Test
    void layerNamesThatSimulatePrintsAreTheOnesMeasureTakes() {
        MeasureCommandTest.Run sim = run("simulate", "--hw", "a100", "--traffic", "analytical", "--json", "-");
        assertEquals(0, sim.code(), sim.err());
        Map<String, Object> root = Json.parseObject(sim.out());
        String name = (String) ((Map<?, ?>) ((List<?>) root.get("layers")).get(0)).get("name");
        assertTrue(run("profile", "--model", "minilm").out().contains(name + " "));
        MeasureCommandTest.Run m = run("measure", "--formats", "csr", "--batch", "2", "--reps", "1", "--layers", name);
        assertEquals(0, m.code(), m.err());
        assertTrue(m.out().contains(name + " "), m.out());
    }

    @Test
    void aFormatACommandCannotTakeGetsOneLineNamingWhatCan() {
        oneLine(run("simulate", "--hw", "a100", "--format", "ell"), "--format: no performance model for ell",
                "'sparseprof formats' prices it", "'sparseprof measure --formats ell' times it");
        oneLine(run("compare", "--hw", "a100", "--formats", "csr,sell-32-256"), "--formats: no performance model for sell-32-256");
        oneLine(run("measure", "--formats", "bsr16x16", "--batch", "4"), "--formats: no CPU kernel for bsr16x16", "'sparseprof formats' prices it");
        oneLine(run("simulate", "--hw", "a100", "--format", "zip"), "--format: unknown format 'zip' (known: dense, csr");
    }

    @Test
    void presetsAnswerToTheirFileNamesAndNmPrunesInSimulate() {
        MeasureCommandTest.Run byFile = run("simulate", "--hw", "a100", "--traffic", "analytical", "--nm", "2:4");
        assertEquals(0, byFile.code(), byFile.err());
        assertTrue(byFile.out().startsWith("NVIDIA A100 80GB SXM4 (a100.yaml), batch 128, fp16, 2:4-pruned"), byFile.out());
        assertTrue(byFile.out().contains("50.0%"), byFile.out());
        fits(byFile.out());
        oneLine(run("simulate", "--hw", "a100", "--nm", "4:8"), "--nm 4:8: simulate prunes to 2:4 or 1:2");
        oneLine(run("simulate", "--hw", "a100", "--nm", "2:4", "--sparsity", "0.5"), "choose one pruning");
        oneLine(run("simulate", "--hw", "a101"), "neither a file nor a preset (presets: a100-80gb");
    }

    @Test
    void defaultTablesFit120ColumnsAndWideShowsMore() {
        MeasureCommandTest.Run profile = run("profile");
        fits(profile.out());
        assertTrue(profile.out().contains("(--wide adds: "), profile.out());
        MeasureCommandTest.Run wide = run("profile", "--wide");
        assertTrue(wide.out().lines().anyMatch(l -> l.length() > 120) && wide.out().contains("row nnz min/mean/max"));
        fits(run("formats").out());
        fits(run("simulate", "--hw", "a100", "--traffic", "analytical", "--sparsity", "0.9").out());
        MeasureCommandTest.Run compare = run("compare", "--hw", "epyc-zen5-2c", "--formats", "csr,bsr4x4,2:4", "--sparsity", "0.9", "--traffic", "analytical");
        fits(compare.out());
        assertFalse(compare.out().matches("(?s).*\\d\\.\\d{3} ms.*"), "three significant digits: " + compare.out());
        assertTrue(run("simulate", "--help").out().contains("--traffic=checked|analytical|simulated"));
    }
}
