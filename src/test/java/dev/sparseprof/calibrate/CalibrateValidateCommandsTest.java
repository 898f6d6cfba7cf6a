package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.cli.Main;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.measure.Timing;
import dev.sparseprof.measure.gpu.GpuCase;
import dev.sparseprof.measure.gpu.GpuCases;
import dev.sparseprof.measure.gpu.GpuDevice;
import dev.sparseprof.measure.gpu.GpuKernel;
import dev.sparseprof.measure.gpu.GpuMeasurement;
import dev.sparseprof.measure.gpu.GpuMeasurementsJson;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.util.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sparseprof calibrate} and {@code validate} end to end on the committed validation/ folder, and their bad input. */
class CalibrateValidateCommandsTest {
    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    static final String MEASURED = "validation/measured/intel-r-xeon-r-processor-512bit/minilm-t1-s0.9-n32.json";
    static final String MEASURED_2T = "validation/measured/intel-r-xeon-r-processor-512bit/minilm-t2-s0.9-n32.json";
    static final String PROBE = "validation/measured/intel-r-xeon-r-processor-512bit/probe-this-vm.yaml";
    static final String BASE = "validation/measured/intel-r-xeon-r-processor-512bit/this-vm-base.yaml";

    @Test
    @SuppressWarnings("unchecked")
    void validateReportsEveryCaseAndGroupAsJson() {
        Run r = run("validate", "--json", "-");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> json = Json.parseObject(r.out());
        List<Object> cases = (List<Object>) json.get("cases");
        List<Object> groups = (List<Object>) json.get("groups");
        assertTrue(cases.size() > 100, "cases " + cases.size());
        Map<String, Object> c = (Map<String, Object>) cases.get(0);
        for (String k : List.of("name", "group", "predicted", "measured", "errorPercent")) assertTrue(c.containsKey(k), k);
        boolean heldOut = false;
        for (Object g : groups) {
            Map<String, Object> m = (Map<String, Object>) g;
            assertTrue(m.containsKey("name") && m.containsKey("mape"));
            if (m.get("name").equals("intel-r-xeon-r-processor-512bit/minilm-cpu calibrated held-out")) {
                heldOut = true;
                assertTrue(((String) m.get("note")).contains("measured IQR/median"), "the measurements' own spread: " + m.get("note"));
            }
        }
        assertTrue(heldOut, "the calibrated spec is judged on the held-out half");
    }

    @Test
    void everyRunOfAnNmFileIsModelledOnThe24PrunedLayer() {
        MeasuredRuns runs = MeasuredRuns.read(Path.of("validation/measured/intel-r-xeon-r-processor-512bit/minilm-t1-nm24-n32.json"));
        try (Model m = Models.openDefault()) {
            List<CalibrationCase> cases = CalibrationCases.of(runs, m);
            assertEquals(runs.runs().size(), cases.size());
            for (CalibrationCase c : cases) {
                assertEquals("2:4", c.pruning(), c.run().key());
                if (!c.format().name().equals("dense")) assertEquals(c.run().nnz(), c.workload().nnz(), c.run().key());
            }
            // the csr run shares the 2:4 run's workload: same row lengths (every row holds K/2)
            CalibrationCase csr = cases.stream().filter(c -> c.format().name().equals("csr")).findFirst().orElseThrow();
            CalibrationCase twoFour = cases.stream().filter(c -> c.format().name().equals("2:4")
                    && c.run().layer().equals(csr.run().layer())).findFirst().orElseThrow();
            assertTrue(csr.workload() == twoFour.workload(), "one workload per layer and pruning");
        }
    }

    @Test
    void calibrateFitsAndWritesAnOverlayThatLoads(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("cal.yaml");
        Path spec = dir.resolve("probe.yaml");
        Files.copy(Path.of(PROBE), spec);
        Files.copy(Path.of(BASE), dir.resolve("this-vm-base.yaml")); // the probe overlay's preset, next to it
        Run r = run("calibrate", "--hw", spec.toString(), "--measurements", MEASURED + "," + MEASURED_2T, "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("held-out"), r.out());
        assertTrue(r.out().contains("imbalance penalty: "), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("fork-join-seconds") && l.endsWith("fitted")), r.out());
        assertTrue(r.out().contains("per-nnz-cycles[coo]"), r.out());
        assertTrue(r.out().contains("kept: the probe measures it"), r.out());
        String yaml = Files.readString(out);
        assertTrue(yaml.contains("preset: probe.yaml"), yaml);
        assertTrue(HardwareSpecs.load(out.toString()) instanceof CpuSpec);
    }

    @Test
    void badInputIsOneLineAndExitTwo(@TempDir Path dir) throws IOException {
        Path foreign = dir.resolve("foreign.json");
        Files.writeString(foreign, """
                {"version": 1, "model": "resnet50.onnx", "machine": "m", "date": "d", "javaVersion": "25", "command": "c",
                 "results": [{"layer": "conv1", "format": "csr", "batch": 1, "threads": 1, "partition": "nnz", "rows": 64,
                              "cols": 147, "nnz": 900, "sparsity": 0.9, "repetitions": 3, "medianSeconds": 1e-5,
                              "minSeconds": 1e-5, "maxSeconds": 1e-5, "q1Seconds": 1e-5, "q3Seconds": 1e-5, "imbalance": 1.0,
                              "gflops": 1.0, "effectiveGBps": 1.0, "speedupOverDense": null}]}
                """);
        String out = dir.resolve("o.yaml").toString();
        String[][] cases = {
                {"calibrate", "--hw", PROBE, "--measurements", foreign.toString(), "--out", out},
                {"calibrate", "--hw", "a100-80gb", "--measurements", MEASURED, "--out", out},
                {"calibrate", "--hw", PROBE, "--measurements", "no/such.json", "--out", out},
                {"calibrate", "--hw", PROBE, "--out", out},
                {"validate", "--hw", "h200"},
                {"validate", "--cases", dir.resolve("none").toString()},
                {"validate", "--gpu-measure", dir.resolve("none").toString()},
        };
        Run model = run(cases[0]);
        assertTrue(model.err().contains("resnet50.onnx"), model.err());
        for (String[] c : cases) {
            Run r = run(c);
            assertEquals(2, r.code(), String.join(" ", c) + ": " + r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
            assertTrue(r.err().startsWith("sparseprof: "), r.err());
        }
        assertFalse(Files.exists(Path.of(out)), "nothing written on bad input");
        Run gpu = run("validate", "--gpu-measure", dir.toString());
        if (gpu.code() != 0) {
            assertEquals(2, gpu.code());
            assertTrue(gpu.err().startsWith("sparseprof: no GPU: "), gpu.err());
            assertEquals(1, gpu.err().strip().lines().count(), "one line: " + gpu.err());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void gpuSetsAreValidatedOnTheirGpuSpec(@TempDir Path dir) throws IOException {
        GpuDevice h200 = new GpuDevice("NVIDIA H200", 9, 0, 132, 141L << 30, 13000);
        List<GpuCase> cases = List.of(new GpuCase("minilm-gpu", "ffn.up", 1536, 384, 128, GpuKernel.DENSE_MMA_F16, 0),
                new GpuCase("minilm-gpu", "ffn.up", 1536, 384, 128, GpuKernel.SPARSE24_MMA, 0),
                new GpuCase("minilm-gpu", "ffn.up", 1536, 384, 128, GpuKernel.CSR_ROWSPLIT, 0.9));
        long[] nnz = {1536L * 384, 1536L * 384 / 2, 58982};
        double[] seconds = {20e-6, 16e-6, 30e-6};
        List<GpuMeasurement> results = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Timing t = new Timing(3, seconds[i], seconds[i], seconds[i], seconds[i], seconds[i], 1.0);
            results.add(new GpuMeasurement(cases.get(i).kernel().key(), "ffn.up", 1536, 384, nnz[i], 128, t, 1, 0, "NVIDIA H200"));
        }
        Files.createDirectories(dir.resolve("measured"));
        Files.writeString(dir.resolve("measured/gpu.json"), GpuMeasurementsJson.write("synthetic", h200, "d", "c", cases, results));
        Files.writeString(dir.resolve("measured/sets.yaml"), """
                version: 1
                sets:
                  - name: h200-gpu
                    device: gpu
                    spec: h200
                    measurements:
                      - file: gpu.json
                """);
        Run r = run("validate", "--cases", dir.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        List<Object> groups = (List<Object>) Json.parseObject(r.out()).get("groups");
        Map<String, Object> g = (Map<String, Object>) groups.get(0);
        assertEquals("h200-gpu uncalibrated", g.get("name"));
        assertEquals(3L, g.get("cases"));
        assertEquals(1L, g.get("bestFormatGroups"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void ncuReportsOfTheQuickCasesAreComparedWithTheModel(@TempDir Path dir) throws IOException {
        StringBuilder csv = new StringBuilder("==PROF== Connected to process 1\n\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n");
        List<GpuCase> quick = GpuCases.validationSet(true);
        for (int i = 0; i < quick.size(); i++) {
            String k = quick.get(i).kernel().entry();
            csv.append("\"").append(i).append("\",\"").append(k).append("\",\"l1tex__t_sector_hit_rate.pct\",\"%\",\"50\"\n");
            csv.append("\"").append(i).append("\",\"").append(k).append("\",\"gpu__time_duration.sum\",\"usecond\",\"10.5\"\n");
        }
        Path file = dir.resolve("ncu.csv");
        Files.writeString(file, csv);
        Run r = run("validate", "--ncu", file.toString(), "--json", "-");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> json = Json.parseObject(r.out());
        assertEquals(2L * quick.size(), ((List<Object>) json.get("cases")).size(), "L1 hit and duration per case");
        Map<String, Object> l1 = (Map<String, Object>) ((List<Object>) json.get("groups")).get(0);
        assertEquals("ncu L1 hit", l1.get("name"));
        Run wrong = run("validate", "--ncu", "src/test/resources/ncu/spmm-metrics.csv");
        assertEquals(2, wrong.code());
        assertTrue(wrong.err().contains("the quick GPU set has"), wrong.err());
    }
}
