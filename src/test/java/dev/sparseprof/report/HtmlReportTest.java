package dev.sparseprof.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.Json;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The simulate report on synthetic layers: a self-contained page of decodable PNG charts, and JSON that parses. */
class HtmlReportTest {
    private static Simulation.Result result() {
        Simulation.Options o = new Simulation.Options(128, DType.F16, Workloads.Pruning.NONE, 0,
                List.of(FormatModels.byName("dense"), FormatModels.byName("csr"), FormatModels.byName("2:4")));
        List<Workload> ws = List.of(Workload.uniformSparse("/enc/l0/fc1/MatMul", 1024, 512, 128, DType.F16, 0.1, false),
                Workload.uniformSparse("/enc/l0/fc2/MatMul", 512, 1024, 128, DType.F16, 0.5, true));
        return Simulation.run(new PerfModel(HardwareSpecs.load("a100-80gb"), TrafficModel.ANALYTICAL), ws, o);
    }

    @Test
    void pageIsSelfContainedWithFiveCharts() {
        String page = HtmlReport.simulation(result());
        assertTrue(page.startsWith("<!DOCTYPE html>"));
        Matcher m = Pattern.compile("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"").matcher(page);
        int images = 0;
        while (m.find()) {
            byte[] png = Base64.getDecoder().decode(m.group(1));
            assertEquals((byte) 0x89, png[0]);
            assertEquals('P', png[1]);
            images++;
        }
        assertEquals(5, images);
        assertTrue(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"));
    }

    @Test
    void jsonParsesAndTotalsAddUp() {
        Simulation.Result r = result();
        Map<String, Object> root = Json.parseObject(SimulationReport.json(r));
        List<?> layers = (List<?>) root.get("layers");
        double sum = 0;
        for (Object o : layers) sum += ((Number) ((Map<?, ?>) o).get("predictedSeconds")).doubleValue();
        Map<?, ?> totals = (Map<?, ?>) root.get("totals");
        assertEquals(sum, ((Number) totals.get("predictedSeconds")).doubleValue(), 1e-15);
        assertTrue(SimulationReport.table(r).contains("total (2 layers)"));
    }
}
