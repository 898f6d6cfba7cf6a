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
import dev.sparseprof.util.Json;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The simulate report on synthetic layers: a self-contained page whose charts are data for ECharts, and JSON that parses. */
class HtmlReportTest {
    private static Simulation.Result result() {
        Simulation.Options o = new Simulation.Options(128, DType.F16, Workloads.Pruning.NONE, 0,
                List.of(FormatModels.byName("dense"), FormatModels.byName("csr"), FormatModels.byName("2:4")));
        List<Workload> ws = List.of(Workload.uniformSparse("/enc/l0/fc1/MatMul", 1024, 512, 128, DType.F16, 0.1, false),
                Workload.uniformSparse("/enc/l0/fc2/MatMul", 512, 1024, 128, DType.F16, 0.5, true));
        return Simulation.run(new PerfModel(HardwareSpecs.load("a100-80gb"), TrafficModel.ANALYTICAL), ws, o);
    }

    /** The chart data the page script draws from. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> charts(String page) {
        Matcher m = Pattern.compile("(?s)<script type=\"application/json\" id=\"sparseprof-data\">(.*?)</script>").matcher(page);
        assertTrue(m.find(), "the chart data");
        return (List<Map<String, Object>>) Json.parseObject(m.group(1).replace("<\\/", "</")).get("charts");
    }

    @Test
    void pageIsSelfContainedWithItsChartsAsData() {
        String page = HtmlReport.simulation(result());
        assertTrue(page.startsWith("<!DOCTYPE html>"));
        assertFalse(page.matches("(?s).*(src|href)=\"https?:.*"), "nothing from the network");
        assertFalse(page.contains("<pre>"), "tables are tables, not text dumps");
        assertTrue(page.contains("Apache ECharts 5.3.1") && page.contains("registerPainter(\"svg\"") && page.contains("echarts.init("), "ECharts and the page script inlined");
        List<String> kinds = charts(page).stream().map(c -> (String) c.get("id")).toList();
        assertEquals(List.of("roofline", "waterfall", "times", "missrates", "sparsity"), kinds);
        assertTrue(page.contains("<table class=\"sortable\">"));
        for (Map<String, Object> c : charts(page)) {
            for (Map.Entry<String, Object> e : c.entrySet()) assertFalse(e.getValue() == null && !e.getKey().equals("subtitle")
                    && !e.getKey().equals("pick"), c.get("id") + "." + e.getKey() + " is null");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void rooflineRoofsAreBoundedAndWaterfallPartsAddUp() {
        List<Map<String, Object>> charts = charts(HtmlReport.simulation(result()));
        Map<String, Object> roof = charts.get(0);
        List<Map<String, Object>> ceilings = (List<Map<String, Object>>) roof.get("ceilings");
        assertTrue(ceilings.stream().anyMatch(c -> c.get("name").equals("tensor fp16") && ((Number) c.get("tflops")).doubleValue() == 312));
        assertTrue(!((List<?>) roof.get("overheads")).isEmpty(), "an overhead ceiling");
        List<Map<String, Object>> diagonals = (List<Map<String, Object>>) roof.get("diagonals");
        assertEquals("DRAM", diagonals.get(diagonals.size() - 1).get("name"));
        assertEquals(2.039, ((Number) diagonals.get(diagonals.size() - 1).get("tbps")).doubleValue(), 1e-9);
        Map<String, Object> w = ((List<Map<String, Object>>) charts.get(1).get("layers")).get(0);
        double sum = ((Number) w.get("ideal")).doubleValue();
        for (Object p : (List<?>) w.get("parts")) sum += ((Number) ((List<?>) p).get(1)).doubleValue();
        assertEquals(((Number) w.get("predicted")).doubleValue(), sum, 1e-12);
        assertEquals(List.of("roof", "index bytes", "gather misses", "imbalance", "fixed costs"),
                ((List<?>) w.get("parts")).stream().map(p -> ((List<?>) p).get(0)).toList());
    }

    @Test
    void aDenseModelGetsNoEmptySparsityChart() {
        Simulation.Options o = new Simulation.Options(128, DType.F16, Workloads.Pruning.NONE, 0,
                List.of(FormatModels.byName("dense"), FormatModels.byName("csr")));
        Simulation.Result r = Simulation.run(new PerfModel(HardwareSpecs.load("a100-80gb"), TrafficModel.ANALYTICAL),
                List.of(Workload.dense("/enc/fc1/MatMul", 256, 256, 128, DType.F16)), o);
        String page = HtmlReport.simulation(r);
        assertFalse(charts(page).stream().anyMatch(c -> c.get("id").equals("sparsity")));
        assertTrue(page.contains("Every layer is dense as stored (0% sparsity)"));
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
