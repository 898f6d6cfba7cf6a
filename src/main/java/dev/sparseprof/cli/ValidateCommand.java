package dev.sparseprof.cli;

import dev.sparseprof.calibrate.GpuValidation;
import dev.sparseprof.calibrate.NcuComparison;
import dev.sparseprof.calibrate.MeasuredRuns;
import dev.sparseprof.calibrate.MeasuredSet;
import dev.sparseprof.calibrate.MeasuredValidation;
import dev.sparseprof.calibrate.PublishedValidation;
import dev.sparseprof.calibrate.ValidationCase;
import dev.sparseprof.calibrate.ValidationGroup;
import dev.sparseprof.calibrate.ValidationReport;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.measure.MachineIdentity;
import dev.sparseprof.measure.external.NcuCsvReader;
import dev.sparseprof.measure.gpu.GpuCase;
import dev.sparseprof.measure.gpu.GpuCaseRunner;
import dev.sparseprof.measure.gpu.GpuCases;
import dev.sparseprof.measure.gpu.GpuMeasurement;
import dev.sparseprof.measure.gpu.GpuMeasurementsJson;
import dev.sparseprof.measure.gpu.GpuRunSettings;
import dev.sparseprof.measure.gpu.GpuSpmmRunner;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.perfmodel.PublishedCases;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.JsonWriter;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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
@Command(name = "validate", mixinStandardHelpOptions = true, description = {
        "Check predictions against measured and published cases; print error per case and MAPE per group.",
        "  validate [--hw SPEC] [--json FILE|-]",
        "  validate --gpu-measure DIR [--gpu-quick] [--gpu-reps N]   time the CUDA kernels (needs a GPU)",
        "  validate --ncu FILE.csv [--hw GPU-SPEC] [--json FILE|-]   ncu's hit rates, DRAM bytes, durations vs the model"})
final class ValidateCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Option(names = "--hw", paramLabel = "SPEC", description = "Predict the measured sets with this spec (default: each set's uncalibrated and calibrated specs).")
    String hw;

    @Option(names = "--json", paramLabel = "FILE|-", description = "Write the cases and groups as JSON ('-': standard output, alone).")
    String json;

    @Option(names = "--cases", paramLabel = "DIR", defaultValue = "validation", description = "The validation folder (default: ${DEFAULT-VALUE}).")
    Path casesDir;

    @Option(names = "--ncu", paramLabel = "FILE.csv", description = "Compare an ncu --csv report of the quick GPU cases (run.sh writes one) with the model (--hw, default h200).")
    Path ncu;

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
        Outputs.checkFolder("--json", json);
        PrintWriter out = spec.commandLine().getOut();
        if (gpuMeasure != null) return gpuMeasure(out);
        ValidationReport report = ncu != null ? ncu() : run();
        boolean jsonOnly = Outputs.jsonOnStdout(json);
        List<PublishedCases.Summary> pub = ncu != null ? List.of() : publishedSummaries;
        if (!jsonOnly) {
            TextTable t = new TextTable("case", "group", "predicted", "measured", "error").rightAlign(2, 3, 4);
            for (ValidationCase c : report.cases()) {
                t.row(c.name(), c.group(), show(c.predicted(), c.unit()), show(c.measured(), c.unit()),
                        String.format(Locale.ROOT, c.unit().equals("sparsity") ? "%+.1f pt" : "%+.1f%%", c.errorPercent()));
            }
            out.print(t.render());
            TextTable g = new TextTable("group", "cases", "MAPE", "vs dense", "best format", "note").rightAlign(1, 2, 3, 4);
            for (ValidationGroup v : report.groups()) {
                g.row(v.name(), Integer.toString(v.cases()), String.format(Locale.ROOT, "%.1f%%", v.mape()),
                        Double.isNaN(v.relativeMape()) ? "-" : String.format(Locale.ROOT, "%.1f%%", v.relativeMape()),
                        v.bestFormatGroups() == 0 ? "-" : String.format(Locale.ROOT, "%d/%d (%.0f%%)", v.bestFormatCorrect(),
                                v.bestFormatGroups(), 100 * v.bestFormatAccuracy()), v.note());
            }
            out.print(g.render());
            if (!pub.isEmpty()) out.print(publishedTable(pub));
        }
        Outputs.write(json, () -> toJson(report, pub), out);
        return 0;
    }

    /** The ncu report of run.sh's profiled quick cases against the model on {@code --hw} (default h200). */
    private ValidationReport ncu() {
        HardwareSpec s = HardwareSpecs.load(hw != null ? hw : "h200");
        if (!(s instanceof GpuSpec gpu)) throw new SparseprofException("--hw " + hw + ": --ncu compares GPU kernels; give a GPU spec");
        List<ValidationCase> cases = new ArrayList<>();
        List<ValidationGroup> groups = new ArrayList<>();
        NcuComparison.evaluate(NcuCsvReader.read(ncu), GpuCases.validationSet(true), gpu, cases, groups);
        return new ValidationReport(cases, groups);
    }

    private ValidationReport run() {
        List<ValidationCase> cases = new ArrayList<>();
        List<ValidationGroup> groups = new ArrayList<>();
        Path sets = casesDir.resolve("measured").resolve("sets.yaml");
        if (Files.isRegularFile(sets)) {
            for (MeasuredSet set : MeasuredSet.read(sets)) {
                List<MeasuredRuns> files = new ArrayList<>();
                for (Path f : set.measurements()) files.add(MeasuredRuns.read(f));
                if (set.device().equals("gpu")) {
                    HardwareSpec g = HardwareSpecs.load(set.uncalibrated()); // --hw is for the CPU sets
                    if (!(g instanceof GpuSpec gpu)) throw new SparseprofException("set " + set.name() + ": GPU runs need a GPU spec, " + g.source() + " is a CPU spec");
                    GpuValidation.evaluate(set.name(), files, gpu, cases, groups);
                    continue;
                }
                try (Model model = Models.open(set.model())) {
                    if (hw != null) {
                        CpuSpec given = cpuSpec(hw);
                        if (!sameMachine(files, given) || !set.machine().isEmpty() && !given.model().isEmpty()
                                && !set.machine().equals(new MachineIdentity(given.model(), 0, given.simdBits()).folderName())) {
                            spec.commandLine().getErr().println("validate: set " + set.label() + " left out: measured on "
                                    + set.machine() + " (" + files.get(0).identity().label() + "), --hw " + hw + " was probed on " + given.model()
                                    + ", " + given.simdBits() + "-bit vectors");
                            continue;
                        }
                        // the group names the set (and so the machine); the spec is named by file in the note column
                        MeasuredValidation.evaluate(set.label(), "--hw " + Path.of(hw).getFileName(), files, model, given, cases, groups);
                    } else {
                        MeasuredValidation.evaluate(set.label(), "uncalibrated", files, model, checked(files, set.uncalibrated()),
                                cases, groups);
                        if (set.calibrated() != null) {
                            MeasuredValidation.evaluate(set.label(), "calibrated", files, model, checked(files, set.calibrated().toString()),
                                    cases, groups);
                        }
                    }
                }
            }
        }
        Path published = casesDir.resolve("published");
        if (Files.isDirectory(published)) {
            try (Stream<Path> files = Files.list(published)) {
                publishedSummaries = PublishedValidation.evaluate(files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList(), cases, groups);
            } catch (IOException e) {
                throw new SparseprofException(published + ": cannot list (" + e.getMessage() + ")");
            }
        }
        if (groups.isEmpty()) {
            throw new SparseprofException("--cases " + casesDir + ": no measured/sets.yaml and no published/*.yaml (run from the repository root?)");
        }
        return new ValidationReport(cases, groups);
    }

    /** Whether every file of a set was measured on the kind of machine {@code spec} was probed on (true when the spec names none). */
    private static boolean sameMachine(List<MeasuredRuns> files, CpuSpec spec) {
        if (spec.model().isEmpty()) return true;
        for (MeasuredRuns f : files) if (!f.identity().sameKind(spec.model(), spec.simdBits())) return false;
        return true;
    }

    /** A set's own spec, which must describe the set's machine (a set is refused by name otherwise). */
    private static CpuSpec checked(List<MeasuredRuns> files, String specFile) {
        CpuSpec s = cpuSpec(specFile);
        for (MeasuredRuns f : files) f.checkMachine(s, specFile);
        return s;
    }

    private static CpuSpec cpuSpec(String spec) {
        HardwareSpec s = HardwareSpecs.load(spec);
        if (!(s instanceof CpuSpec c)) throw new SparseprofException("--hw " + spec + ": the measured sets are CPU runs; a GPU spec cannot predict them");
        return c;
    }

    private static String show(double v, String unit) {
        if (Double.isNaN(v)) return "-";
        return switch (unit) {
            case "s" -> Units.formatSeconds(v);
            case "x" -> String.format(Locale.ROOT, "%.2fx", v);
            case "sparsity" -> String.format(Locale.ROOT, "%.1f%%", 100 * v);
            default -> String.format(Locale.ROOT, "%.4g %s", v, unit);
        };
    }

    /** The published groups' summaries of the last {@link #run} (empty when there was no published folder). */
    private List<PublishedCases.Summary> publishedSummaries = List.of();

    /** Per published group: MAPE of dense times, 2:4 times and speedups (figures in brackets), sign agreement. */
    static String publishedTable(List<PublishedCases.Summary> summaries) {
        TextTable t = new TextTable("published group", "dense time MAPE", "2:4 time MAPE", "speedup MAPE", "sign agreement").rightAlign(1, 2, 3, 4);
        for (PublishedCases.Summary s : summaries) {
            t.row(s.group(), mape(s.denseMape(), s.denseCount()), mape(s.sparseMape(), s.sparseCount()), mape(s.speedupMape(), s.speedupCount()),
                    s.signCount() == 0 ? "-" : String.format(Locale.ROOT, "%d/%d (%.0f%%)", s.signAgreed(), s.signCount(), 100 * s.signAgreement()));
        }
        return t.render() + "fit half / check half: CRC32 of the case's ref, even / odd (docs/perfmodel.md); the fitted runtime parameters saw only the fit half\n";
    }

    private static String mape(double mape, int n) {
        return n == 0 ? "-" : String.format(Locale.ROOT, "%.1f%% (%d)", mape, n);
    }

    static String toJson(ValidationReport r) {
        return toJson(r, List.of());
    }

    static String toJson(ValidationReport r, List<PublishedCases.Summary> published) {
        JsonWriter w = new JsonWriter();
        w.beginObject().name("cases").beginArray();
        for (ValidationCase c : r.cases()) {
            w.beginObject().field("name", c.name()).field("group", c.group()).field("predicted", c.predicted())
                    .field("measured", c.measured()).field("errorPercent", c.errorPercent()).field("unit", c.unit())
                    .field("source", c.source()).endObject();
        }
        w.endArray().name("groups").beginArray();
        for (ValidationGroup g : r.groups()) {
            w.beginObject().field("name", g.name()).field("cases", g.cases()).field("mape", g.mape());
            if (g.bestFormatGroups() > 0) {
                w.field("bestFormatCorrect", g.bestFormatCorrect()).field("bestFormatGroups", g.bestFormatGroups())
                        .field("bestFormatAccuracy", g.bestFormatAccuracy());
            }
            if (!Double.isNaN(g.relativeMape())) w.field("relativeToDenseMape", g.relativeMape());
            w.field("note", g.note()).endObject();
        }
        w.endArray().name("published").beginArray();
        for (PublishedCases.Summary s : published) {
            w.beginObject().field("group", s.group()).field("denseTimeMape", s.denseMape()).field("denseTimes", s.denseCount())
                    .field("sparseTimeMape", s.sparseMape()).field("sparseTimes", s.sparseCount())
                    .field("speedupMape", s.speedupMape()).field("speedups", s.speedupCount())
                    .field("signAgreed", s.signAgreed()).field("signs", s.signCount()).field("signAgreement", s.signAgreement()).endObject();
        }
        return w.endArray().endObject().toString();
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
                t.row(m.layer(), Units.formatSeconds(m.medianSeconds()),
                        String.format(Locale.ROOT, "%.1f", m.gflops()),
                        Double.isNaN(m.relativeError()) ? "unchecked" : String.format(Locale.ROOT, "%.1e", m.relativeError()));
            }
            out.print(t.render());
            out.println("validate: " + results.size() + " GPU cases on " + runner.device().name() + " -> " + file);
        }
        return 0;
    }
}
