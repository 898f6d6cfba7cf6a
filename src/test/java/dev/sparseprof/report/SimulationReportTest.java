package dev.sparseprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulate table reads in plain words: narrow by default, one traffic line per format, a dense model said so once. */
class SimulationReportTest {
    private static Simulation.Result result(double density) {
        Simulation.Options o = new Simulation.Options(128, DType.F16, Workloads.Pruning.NONE, 0,
                List.of(FormatModels.byName("dense"), FormatModels.byName("csr"), FormatModels.byName("coo")));
        List<Workload> ws = List.of(Workload.uniformSparse("/enc/l0/fc1/MatMul", 1024, 512, 128, DType.F16, density, false),
                Workload.uniformSparse("/enc/l0/fc2/MatMul", 512, 1024, 128, DType.F16, density, false));
        return Simulation.run(new PerfModel(HardwareSpecs.load("a100-80gb"), TrafficModel.ANALYTICAL), ws, o);
    }

    @Test
    void aDenseModelSaysSoOnceWithTheHintAndShowsTheBestSparseFormat() {
        String t = SimulationReport.table(result(1.0));
        assertTrue(t.contains("the model is dense: try --sparsity 0.9, --nm 2:4 or --format 2:4"), t);
        assertTrue(t.contains("best sparse as stored"), t);
        assertFalse(t.contains("1.00x"), t);
        assertFalse(t.replace("MatMul", "").matches("(?s).*[a-z][A-Z][a-z].*"), "no camelCase in the table (layer names aside): " + t);
        for (String line : t.split("\n")) assertTrue(line.length() <= 120 && !line.endsWith(" "), "narrow by default: " + line);
    }

    @Test
    void aPrunedModelShowsRatiosInPlainWordsAndOneTrafficLinePerFormat() {
        Simulation.Result r = result(0.05);
        String t = SimulationReport.table(r);
        assertFalse(t.contains("the model is dense"), t);
        assertTrue(t.contains("speedup") && t.contains("theory"), t);
        assertFalse(t.contains("gatherScatterMisses") || t.contains("fixedOverheads") || t.contains("indexMetadata"), t);
        List<String> formats = r.layers().stream().map(e -> e.format()).distinct().toList();
        long lines = t.lines().filter(l -> l.startsWith("memory traffic, ")).count();
        assertEquals(formats.size(), lines, t);
        String wide = SimulationReport.table(r, true);
        assertTrue(wide.contains("miss rates") && wide.contains("imbal") && wide.contains("best sparse"), wide);
        assertFalse(t.lines().filter(l -> l.startsWith("layer ")).findFirst().orElseThrow().contains("imbal"), t);
    }

    @Test
    void gapPartsAreShortPlainWords() {
        assertEquals("1.83 us", Units.formatSeconds(1.83e-6));
        assertEquals("16.9 us", Units.formatSeconds(16.92e-6));
        assertEquals("1.20 ms", Units.formatSeconds(1.2e-3));
        assertEquals("439 us", Units.formatSeconds(0.439e-3));
        assertEquals("1.00 ms", Units.formatSeconds(0.99996e-3));
        assertEquals("12.3 s", Units.formatSeconds(12.34));
    }
}
