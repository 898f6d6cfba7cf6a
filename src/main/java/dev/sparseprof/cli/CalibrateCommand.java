package dev.sparseprof.cli;

import dev.sparseprof.calibrate.ProbeOverlay;
import dev.sparseprof.calibrate.SpecOverlay;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.measure.probe.BandwidthPoint;
import dev.sparseprof.measure.probe.CacheSizes;
import dev.sparseprof.measure.probe.FlopsPoint;
import dev.sparseprof.measure.probe.MachineProbe;
import dev.sparseprof.measure.probe.ProbeResult;
import dev.sparseprof.measure.probe.ProbeSettings;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.io.PrintWriter;
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
 * {@code sparseprof calibrate}: either probes this machine's limits ({@code --probe}) or fits the
 * model's free parameters to measured runs; both write a spec overlay (preset + overrides) that
 * {@code simulate --hw} takes.
 */
@Command(name = "calibrate", description = {
        "Write a calibrated hardware spec overlay (preset + overrides).",
        "  calibrate --probe --out SPEC.yaml [--preset NAME]   measure this machine (bandwidth per level, FMA peak)",
        "  calibrate --hw SPEC --measurements FILE.json [--perf FILE] [--ncu FILE.csv] --out SPEC.yaml"})
final class CalibrateCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Option(names = "--probe", description = "Measure this machine's limits instead of fitting measurements (< 30 s).")
    boolean probe;

    @Option(names = "--preset", defaultValue = "epyc-zen5-2c", description = "The CPU preset the probe overlay overrides (default: ${DEFAULT-VALUE}).")
    String preset;

    @Option(names = "--hw", paramLabel = "SPEC", description = "The spec (file or preset) the fit starts from.")
    String hw;

    @Option(names = "--measurements", paramLabel = "FILE.json", description = "Measured runs (sparseprof measure --json).")
    Path measurements;

    @Option(names = "--perf", paramLabel = "FILE", description = "perf stat -x, output of the measured run (counters are reported).")
    Path perf;

    @Option(names = "--ncu", paramLabel = "FILE.csv", description = "ncu --csv output of a GPU run (per-kernel metrics are reported).")
    Path ncu;

    @Option(names = "--out", paramLabel = "SPEC.yaml", required = true, description = "Where the overlay goes (written whole or not at all).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter w = spec.commandLine().getOut();
        if (probe) return probe(w);
        throw new SparseprofException("calibrate: fitting needs --hw SPEC and --measurements FILE.json (or use --probe)");
    }

    private int probe(PrintWriter w) {
        HardwareSpec base = HardwareSpecs.load(preset);
        if (!(base instanceof CpuSpec cpu)) throw new SparseprofException("--preset " + preset + ": not a CPU spec");
        ProbeResult r = new MachineProbe(ProbeSettings.DEFAULT, CacheSizes.ofThisMachine()).run();
        TextTable t = new TextTable("level", "kernel", "threads", "working set", "median", "best").rightAlign(2, 4, 5);
        for (BandwidthPoint p : r.bandwidth()) {
            t.row(p.level().key(), p.kernel().key(), Integer.toString(p.threads()), Units.formatBytes(p.workingSetBytes()),
                    gbps(p.medianBytesPerSecond()), gbps(p.bestBytesPerSecond()));
        }
        for (FlopsPoint f : r.flops()) {
            t.row("fma", "fp" + f.bits(), Integer.toString(f.threads()), "-", gflops(f.medianFlopsPerSecond()), gflops(f.bestFlopsPerSecond()));
        }
        w.print(t.render());
        List<String> provenance = List.of(
                "Probed by sparseprof calibrate --probe on " + r.cpuModel() + " (" + r.cores() + " cores, Vector API "
                        + r.vectorBits() + " bits)",
                "date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + String.format(Locale.ROOT, ", probe took %.1f s", r.elapsedSeconds()),
                "command: sparseprof calibrate --probe --preset " + preset + " --out " + out,
                "Roofs are the best of 5 trials (read kernel, STREAM byte counting); the machine may be shared.");
        SpecOverlay overlay = ProbeOverlay.of(r, cpu, preset, provenance);
        overlay.check();
        AtomicFiles.writeString(out, overlay.toYaml());
        w.printf(Locale.ROOT, "calibrate: probe took %.1f s; wrote %s (preset %s + measured overrides)%n", r.elapsedSeconds(), out, preset);
        return 0;
    }

    private static String gbps(double v) {
        return String.format(Locale.ROOT, "%.1f GB/s", v / 1e9);
    }

    private static String gflops(double v) {
        return String.format(Locale.ROOT, "%.1f GFLOP/s", v / 1e9);
    }
}
