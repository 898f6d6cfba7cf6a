package dev.sparseprof.cli;

import dev.sparseprof.measure.gpu.GpuCase;
import dev.sparseprof.measure.gpu.GpuCaseRunner;
import dev.sparseprof.measure.gpu.GpuCases;
import dev.sparseprof.measure.gpu.GpuMeasurement;
import dev.sparseprof.measure.gpu.GpuMeasurementsJson;
import dev.sparseprof.measure.gpu.GpuRunSettings;
import dev.sparseprof.measure.gpu.GpuSpmmRunner;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.SparseprofException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sparseprof validate}: runs the validation cases (measured runs with provenance and
 * published figures) against the model's predictions; {@code --gpu-measure DIR} instead takes the
 * GPU measurements for the next calibration (what {@code validation/gpu/run.sh} calls).
 */
@Command(name = "validate", description = {
        "Check predictions against measured and published cases; print error per case and MAPE per group.",
        "  validate [--hw SPEC] [--json FILE|-]",
        "  validate --gpu-measure DIR [--gpu-quick] [--gpu-reps N]   time the CUDA kernels (needs a GPU)"})
final class ValidateCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Option(names = "--gpu-measure", paramLabel = "DIR", description = "Time the project's CUDA kernels on MiniLM-shaped layers and GEMMs; write DIR/gpu-measurements.json.")
    Path gpuMeasure;

    @Option(names = "--gpu-quick", description = "With --gpu-measure: one batch, no large GEMMs.")
    boolean gpuQuick;

    @Option(names = "--gpu-reps", defaultValue = "30", description = "With --gpu-measure: timed launches per case (default ${DEFAULT-VALUE}; 1 under ncu).")
    int gpuReps;

    @Option(names = "--gpu-warmup", defaultValue = "5", description = "With --gpu-measure: untimed launches first (default ${DEFAULT-VALUE}).")
    int gpuWarmup;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (gpuMeasure != null) return gpuMeasure(out);
        throw new SparseprofException("validate: not built yet");
    }

    private int gpuMeasure(PrintWriter out) {
        if (!Files.isDirectory(gpuMeasure)) throw new SparseprofException("--gpu-measure " + gpuMeasure + ": no such folder");
        List<GpuCase> cases = GpuCases.validationSet(gpuQuick);
        GpuRunSettings settings = new GpuRunSettings(gpuWarmup, gpuReps, 42, GpuRunSettings.DEFAULT.verifyLimitMacs());
        try (GpuSpmmRunner runner = GpuSpmmRunner.open(settings)) {
            PrintWriter err = spec.commandLine().getErr();
            List<GpuMeasurement> results = GpuCaseRunner.run(runner, cases, name -> err.println("validate: gpu " + name));
            String command = "sparseprof validate --gpu-measure " + gpuMeasure + (gpuQuick ? " --gpu-quick" : "")
                    + " --gpu-reps " + gpuReps + " --gpu-warmup " + gpuWarmup;
            String json = GpuMeasurementsJson.write("synthetic all-MiniLM-L6-v2-shaped layers (normal weights, sigma 0.05) and GEMM shapes",
                    runner.device(), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), command, cases, results);
            Path file = gpuMeasure.resolve("gpu-measurements.json");
            AtomicFiles.writeString(file, json);
            TextTable t = new TextTable("case", "median", "GFLOP/s", "rel. error").rightAlign(1, 2, 3);
            for (GpuMeasurement m : results) {
                t.row(m.layer(), String.format(Locale.ROOT, "%.2f us", m.medianSeconds() * 1e6),
                        String.format(Locale.ROOT, "%.1f", m.gflops()),
                        Double.isNaN(m.relativeError()) ? "unchecked" : String.format(Locale.ROOT, "%.1e", m.relativeError()));
            }
            out.print(t.render());
            out.println("validate: " + results.size() + " GPU cases on " + runner.device().name() + " -> " + file);
        }
        return 0;
    }
}
