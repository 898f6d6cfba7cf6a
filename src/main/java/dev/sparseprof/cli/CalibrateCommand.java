package dev.sparseprof.cli;

import dev.sparseprof.calibrate.CalibratedOverlay;
import dev.sparseprof.calibrate.CalibrationCase;
import dev.sparseprof.calibrate.CalibrationCases;
import dev.sparseprof.calibrate.CalibrationFit;
import dev.sparseprof.calibrate.CalibrationResult;
import dev.sparseprof.calibrate.FitParameter;
import dev.sparseprof.calibrate.ImbalanceFit;
import dev.sparseprof.calibrate.MeasuredRuns;
import dev.sparseprof.calibrate.ProbeMedian;
import dev.sparseprof.calibrate.ProbeOverlay;
import dev.sparseprof.calibrate.ProbePreset;
import dev.sparseprof.calibrate.QuickCampaign;
import dev.sparseprof.calibrate.SpecOverlay;
import dev.sparseprof.hw.CoreTeam;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.measure.external.NcuCsvReader;
import dev.sparseprof.measure.external.NcuKernelSummary;
import dev.sparseprof.measure.external.NcuReport;
import dev.sparseprof.measure.external.PerfMeasurement;
import dev.sparseprof.measure.external.PerfStatReader;
import dev.sparseprof.measure.external.PerfStatReport;
import dev.sparseprof.measure.MachineIdentity;
import dev.sparseprof.measure.MeasurementsFile;
import dev.sparseprof.measure.NoiseCriteria;
import dev.sparseprof.measure.probe.BandwidthPoint;
import dev.sparseprof.measure.probe.CacheSizes;
import dev.sparseprof.measure.probe.CoreSpeeds;
import dev.sparseprof.measure.probe.FlopsPoint;
import dev.sparseprof.measure.probe.CoreTopology;
import dev.sparseprof.measure.probe.KernelRateProbe;
import dev.sparseprof.measure.probe.KernelRates;
import dev.sparseprof.measure.probe.MachineProbe;
import dev.sparseprof.measure.probe.MemoryLevel;
import dev.sparseprof.measure.probe.ProbeResult;
import dev.sparseprof.measure.probe.ProbeSettings;
import dev.sparseprof.measure.probe.StreamKernel;
import dev.sparseprof.model.Model;
import dev.sparseprof.model.Models;
import dev.sparseprof.report.TextTable;
import dev.sparseprof.util.AtomicFiles;
import dev.sparseprof.util.CpuName;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.TerminalProgressBar;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
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
@Command(name = "calibrate", mixinStandardHelpOptions = true, description = {
        "Write a calibrated hardware spec overlay (preset + overrides).",
        "  calibrate --probe --out SPEC.yaml [--preset NAME]   measure this machine (bandwidth per level, FMA peak)",
        "  calibrate --hw SPEC --measurements FILE.json [--perf FILE] [--ncu FILE.csv] --out SPEC.yaml",
        "  calibrate --quick --hw PROBED.yaml --out SPEC.yaml   measure a small campaign here (< 3 min), then fit it"})
final class CalibrateCommand implements Callable<Integer> {
    @Mixin CommonOptions common;
    @Spec CommandSpec spec;

    @Option(names = "--probe", description = "Measure this machine's limits instead of fitting measurements (about 30 s on a 2-vCPU VM).")
    boolean probe;

    @Option(names = "--preset", defaultValue = "auto", description = "The CPU preset (name or file) the probe overlay overrides;"
            + " auto (the default): the bundled preset of this CPU's kind (Zen 5, Zen 4 or Intel; else epyc-zen5-2c), named in the output.")
    String preset;

    @Option(names = "--quick", description = "Run a small measurement campaign on this machine (about 2 minutes) and fit it; --hw is this machine's probed spec.")
    boolean quick;

    @Option(names = "--hw", paramLabel = "SPEC", description = "The spec (file or preset) the fit starts from.")
    String hw;

    @Option(names = "--measurements", paramLabel = "FILE.json", split = ",",
            description = "Measured runs (sparseprof measure --json); several files: repeat the option or separate with commas.")
    List<Path> measurements;

    @Option(names = "--perf", paramLabel = "FILE", description = "perf stat -x, output of the measured run (counters are reported).")
    Path perf;

    @Option(names = "--ncu", paramLabel = "FILE.csv", description = "ncu --csv output of a GPU run (per-kernel metrics are reported).")
    Path ncu;

    @Mixin ModelArgument model; // the model the runs were measured on

    @Option(names = "--shared-decode", description = "Fit one perNnz for every format instead of each sparse format's own decode cycles.")
    boolean sharedDecode;

    @Option(names = "--cache-sysfs", hidden = true, paramLabel = "DIR", description = "Where the probe reads the cache geometry (tests).")
    Path cacheSysfs = CacheSizes.SYSFS;

    @Option(names = "--median", paramLabel = "PROBE.yaml", split = ",",
            description = "Write the median of several probed specs of this machine (calibrate --probe run once per file, each in its own JVM): every measured number the probes' median.")
    List<Path> median;

    @Option(names = "--out", paramLabel = "SPEC.yaml", required = true, description = "Where the overlay goes (written whole or not at all).")
    Path out;

    @Override
    public Integer call() {
        Outputs.checkFolder("--out", out.toString());
        PrintWriter w = spec.commandLine().getOut();
        if (median != null) {
            if (probe || quick || measurements != null || hw != null) {
                throw new SparseprofException("calibrate --median takes probed specs and --out only (not --probe, --quick, --hw or --measurements)");
            }
            return median(w);
        }
        if (probe) return probe(w);
        if (quick) return quick(w);
        if (hw == null || measurements == null) {
            throw new SparseprofException("calibrate: fitting needs --hw SPEC and --measurements FILE.json (or use --probe)");
        }
        return fit(w);
    }

    private int fit(PrintWriter w) {
        HardwareSpec start = HardwareSpecs.load(hw);
        if (!(start instanceof CpuSpec cpu)) {
            throw new SparseprofException("--hw " + hw + ": a GPU spec; the fit covers CPU specs (GPU runs are validated, not fitted)");
        }
        List<MeasuredRuns> files = new ArrayList<>();
        for (Path f : measurements) {
            MeasuredRuns runs = MeasuredRuns.read(f);
            if (!runs.device().equals("cpu")) {
                throw new SparseprofException(f + ": " + runs.device() + " measurements cannot calibrate the CPU spec " + hw);
            }
            runs.checkMachine(cpu, hw);
            files.add(runs);
        }
        if (perf != null) report(w, PerfStatReader.read(perf));
        if (ncu != null) report(w, NcuCsvReader.read(ncu));
        return fitAndWrite(w, cpu, files, "--measurements " + joined(measurements));
    }

    /**
     * {@code --quick}: the campaign of {@link QuickCampaign} on this machine, refused when the runs
     * are too noisy to fit (naming the noise and the load average), then the same fit as from files.
     */
    private int quick(PrintWriter w) {
        if (hw == null) throw new SparseprofException("calibrate --quick: give this machine's probed spec with --hw (calibrate --probe writes one)");
        if (measurements != null) throw new SparseprofException("calibrate --quick measures its own runs: leave out --measurements");
        HardwareSpec start = HardwareSpecs.load(hw);
        if (!(start instanceof CpuSpec cpu)) throw new SparseprofException("--hw " + hw + ": a GPU spec; --quick calibrates a CPU spec");
        MachineIdentity here = MachineIdentity.ofThisMachine();
        if (!cpu.model().isEmpty() && !here.sameKind(cpu.model(), cpu.simdBits())) {
            throw new SparseprofException("--hw " + hw + ": probed on " + cpu.model() + ", " + cpu.simdBits() + "-bit vectors; this machine is "
                    + here.label() + " (probe it first: calibrate --probe)");
        }
        List<MeasurementsFile> campaign;
        long t0 = System.nanoTime();
        try (Model m = model.open()) {
            Progress bar = TerminalProgressBar.forTerminal("calibrate --quick");
            try {
                campaign = QuickCampaign.run(m, Math.min(cpu.cores(), Runtime.getRuntime().availableProcessors()), NoiseCriteria.DEFAULT, bar);
            } finally {
                bar.finish();
            }
        }
        int runs = 0;
        for (MeasurementsFile f : campaign) runs += f.results().size();
        String load = loadAverage();
        w.printf(Locale.ROOT, "calibrate --quick: %d runs in %d configurations, %.0f s; load average %s%n", runs, campaign.size(),
                (System.nanoTime() - t0) * 1e-9, load);
        String noisy = QuickCampaign.tooNoisy(campaign, NoiseCriteria.DEFAULT);
        if (!noisy.isEmpty()) {
            throw new SparseprofException("calibrate --quick: the runs are too noisy to fit: " + noisy + "; load average " + load
                    + "; no spec written (run it on a quieter machine, or fit measure --json files)");
        }
        int slow = QuickCampaign.timedSlow(campaign);
        if (slow > 0) w.printf(Locale.ROOT, "calibrate --quick: %d of %d cases timed while the FMA canary read low, left out of the fit%n", slow, runs);
        List<MeasuredRuns> files = new ArrayList<>();
        for (MeasurementsFile f : QuickCampaign.fitCases(campaign)) files.add(MeasuredRuns.parse("quick: " + f.header().command(), f.toJson()));
        return fitAndWrite(w, cpu, files, "--quick");
    }

    /**
     * {@code --median}: one spec from several probes of this machine ({@link ProbeMedian}), each
     * value a probe drew more than 15 % from the median named.
     */
    private int median(PrintWriter w) {
        ProbeMedian.Result r = ProbeMedian.of(median, out.toAbsolutePath().getParent());
        SpecOverlay overlay = r.overlay();
        overlay.check(out.toAbsolutePath().getParent());
        for (String a : r.apart()) w.println("calibrate --median: " + a);
        AtomicFiles.writeString(out, overlay.toYaml());
        w.println("calibrate: wrote " + out + " (the median of " + median.size() + " probes)");
        return 0;
    }

    /** The 1-, 5- and 15-minute load averages of {@code /proc/loadavg}, or {@code n/a}. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private int fitAndWrite(PrintWriter w, CpuSpec cpu, List<MeasuredRuns> files, String source) {
        CalibrationResult r;
        try (Model m = model.open()) {
            String modelName = model.name() == null ? Models.DEFAULT_NAME : Path.of(model.name()).getFileName().toString();
            List<CalibrationCase> cases = new ArrayList<>();
            for (MeasuredRuns runs : files) {
                if (!runs.model().contains(modelName) && !modelName.contains(runs.model())) {
                    throw new SparseprofException(runs.source() + ": measured on model '" + runs.model() + "', calibrating with '"
                            + modelName + "' (pass --model)");
                }
                cases.addAll(CalibrationCases.of(runs, m));
                CalibrationCases.unmodelled(runs).forEach((f, n) -> w.println("calibrate: " + runs.source() + ": left out " + n
                        + " " + f + " runs (no performance model for " + f + ")"));
            }
            Set<String> ownDecode = new TreeSet<>();
            if (!sharedDecode) {
                for (CalibrationCase c : cases) if (!c.format().name().equals("dense")) ownDecode.add(c.format().name());
            }
            r = CalibrationFit.fit(cpu, cases, ownDecode);
        }
        TextTable t = new TextTable("parameter", "before", "after", "").rightAlign(1, 2);
        for (FitParameter f : r.after().parameters()) {
            String state = !r.fitted().contains(f) ? (r.undetermined().contains(f) ? "kept: no training run depends on it"
                    : r.unbounded().contains(f) ? "kept: fitted without bound or above the L1's read (the runs do not support this term)"
                    : f.equals(FitParameter.CLOCK) ? "kept: the probe measures it" : "kept: not in the spec")
                    : r.after().get(f) == 0 ? "fitted to 0: the runs do not support this term" : "fitted";
            t.row(f.label(), String.format(Locale.ROOT, "%.4g", r.before().get(f)), String.format(Locale.ROOT, "%.4g", r.after().get(f)), state);
        }
        w.print(t.render());
        w.println(imbalanceLine(r.imbalance()));
        String summary = String.format(Locale.ROOT,
                "time MAPE: training %.1f%% -> %.1f%% (%d runs), held-out %.1f%% -> %.1f%% (%d runs); best format held-out %s -> %s",
                r.mape(true, false), r.mape(true, true), r.count(true), r.mape(false, false), r.mape(false, true), r.count(false),
                share(r.bestFormatCounts(false, false)), share(r.bestFormatCounts(false, true)));
        w.println(summary);
        List<String> provenance = List.of(
                "Calibrated by sparseprof calibrate (Levenberg-Marquardt through the perf model, " + r.iterations() + " iterations)",
                "command: sparseprof calibrate --hw " + hw + " " + source
                        + (model.name() != null ? " --model " + model.name() : "") + " --out " + out,
                "measurements: " + files.size() + " files, " + files.get(0).machine() + ", first " + files.get(0).date(),
                "date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS), summary,
                "Not fitted: the clock (the probe's), gather cycles" + undetermined(r) + ".");
        SpecOverlay overlay = CalibratedOverlay.checked(CalibratedOverlay.of(r, presetFor(hw, out), provenance), r,
                out.toAbsolutePath().getParent());
        AtomicFiles.writeString(out, overlay.toYaml());
        w.println("calibrate: wrote " + out);
        return 0;
    }

    /** How the imbalance penalty came out of the threads' measured imbalance. */
    static String imbalanceLine(ImbalanceFit f) {
        if (f.runs() == 0) return "imbalance penalty: kept (no multi-threaded training run with a measured imbalance)";
        String over = String.format(Locale.ROOT, "%d multi-threaded training runs, modelled factors %.3f-%.3f, measured median %.3f",
                f.runs(), f.modelledMin(), f.modelledMax(), f.measuredMedian());
        if (!f.determined()) {
            return String.format(Locale.ROOT, "imbalance penalty: kept, not determined (slope standard error %.2f): %s", f.standardError(), over);
        }
        return String.format(Locale.ROOT,
                "imbalance penalty: %.3f +- %.3f, the slope of measured over modelled imbalance (%s; %.3f of it no schedule explains)",
                f.penalty(), f.standardError(), over, f.noise());
    }

    /** The parameters no training run depends on (the imbalance penalty and fork/join without multi-threaded runs). */
    private static String undetermined(CalibrationResult r) {
        StringBuilder b = new StringBuilder();
        for (FitParameter f : r.undetermined()) b.append(", ").append(f.label()).append(" (no training run depends on it)");
        return b.toString();
    }

    /** The overlay's preset: the preset name, or the spec file's path relative to the overlay's folder. */
    static String presetFor(String hwOption, Path outFile) {
        Path p = Path.of(hwOption);
        if (!Files.isRegularFile(p)) return hwOption;
        Path dir = outFile.toAbsolutePath().getParent();
        return dir.relativize(p.toAbsolutePath()).toString();
    }

    private static String joined(List<Path> paths) {
        StringBuilder b = new StringBuilder();
        for (Path p : paths) b.append(b.length() == 0 ? "" : ",").append(p);
        return b.toString();
    }

    private static String share(int[] counts) {
        return counts[1] == 0 ? "n/a" : counts[0] + "/" + counts[1];
    }

    private static void report(PrintWriter w, PerfStatReport perfReport) {
        String note = perfReport.note();
        if (note != null) w.println("calibrate: " + note);
        PerfMeasurement m = perfReport.measurement();
        if (m.cycles().isPresent()) {
            w.printf(Locale.ROOT, "calibrate: perf: %.4g cycles, %.4g instructions, IPC %s, L1d misses %s, LLC misses %s%n",
                    m.cycles().getAsDouble(), m.instructions().orElse(Double.NaN),
                    m.instructionsPerCycle().isPresent() ? String.format(Locale.ROOT, "%.2f", m.instructionsPerCycle().getAsDouble()) : "n/a",
                    m.l1dLoadMisses().isPresent() ? String.format(Locale.ROOT, "%.4g", m.l1dLoadMisses().getAsDouble()) : "n/a",
                    m.llcLoadMisses().isPresent() ? String.format(Locale.ROOT, "%.4g", m.llcLoadMisses().getAsDouble()) : "n/a");
        }
    }

    private static void report(PrintWriter w, NcuReport ncuReport) {
        TextTable t = new TextTable("id", "kernel", "duration", "L1 hit", "L2 hit", "DRAM bytes", "occupancy").rightAlign(0, 2, 3, 4, 5, 6);
        for (NcuKernelSummary k : ncuReport.summaries()) {
            t.row(Long.toString(k.id()), k.kernelName(),
                    k.durationSeconds().isPresent() ? Units.formatSeconds(k.durationSeconds().getAsDouble()) : "n/a",
                    pct(k.l1HitPercent()), pct(k.l2HitPercent()),
                    k.dramBytes().isPresent() ? Units.formatBytes(k.dramBytes().getAsDouble()) : "n/a", pct(k.achievedOccupancyPercent()));
        }
        w.print(t.render());
    }

    private static String pct(OptionalDouble v) {
        return v.isPresent() ? String.format(Locale.ROOT, "%.1f%%", v.getAsDouble()) : "n/a";
    }

    private int probe(PrintWriter w) {
        if ("auto".equals(preset)) {
            ProbePreset.Choice choice = ProbePreset.forCpu(CpuName.ofThisMachine());
            preset = choice.preset();
            w.printf(Locale.ROOT, "calibrate: preset %s: %s; --preset NAME|FILE chooses another%n", preset, choice.why());
        }
        HardwareSpec base = HardwareSpecs.load(preset);
        if (!(base instanceof CpuSpec cpu)) throw new SparseprofException("--preset " + preset + ": not a CPU spec");
        CacheSizes sizes = CacheSizes.read(cacheSysfs, presetSizes(cpu));
        if (!sizes.fromSysfs()) {
            spec.commandLine().getErr().println("calibrate: warning: " + cacheSysfs + " does not give every cache level's size, ways and line;"
                    + " the missing ones are the preset's (" + preset + ": L1d " + Units.formatBytes(sizes.l1dBytes()) + ", L2 "
                    + Units.formatBytes(sizes.l2Bytes()) + ", L3 " + Units.formatBytes(sizes.l3Bytes()) + ")");
        }
        ProbeResult r = new MachineProbe(ProbeSettings.DEFAULT, sizes).run();
        double l2Read = r.bandwidth(MemoryLevel.L2, StreamKernel.READ, 1)
                .orElseThrow().bestBytesPerSecond();
        // the CPUs' speeds: a first take now, and where it reads them unequal, more after the kernel rates'
        // rounds (some seconds later: a tenant's burst on one vCPU lasts seconds), before the gathers that use them
        CoreSpeeds first = CoreSpeeds.measure(ProbeSettings.DEFAULT.minTrialSeconds());
        AtomicReference<CoreSpeeds> settled = new AtomicReference<>(first);
        int teamCores = CoreTopology.coresUnderTeam(r.cores());
        CoreTeam team = ProbeOverlay.team(r, r.cores(), teamCores);
        // the gathers' in-core part on all threads goes at the pace the model will give it (InCoreRates.coreStretch)
        double teamPace = team.paceOn(r.cores());
        KernelRateProbe kernelProbe = new KernelRateProbe(ProbeSettings.DEFAULT.trials(), ProbeSettings.DEFAULT.minTrialSeconds(), sizes.lineBytes(),
                sizes.ways().get(0)).withFmaReference(r.flops(32, 1).map(f -> f.bestFlopsPerSecond() / 1e9).orElse(Double.NaN)).withL3(sizes.l3Bytes());
        r = r.withKernels(kernelProbe
                .run(sizes.l1dBytes(), sizes.l2Bytes(), l2Read, r.cores(), () -> {
                    settled.set(CoreSpeeds.measureSettled(first, ProbeSettings.DEFAULT.minTrialSeconds()));
                    return Math.min(teamPace, settled.get() == null ? 1 : settled.get().slowestOverFirst());
                }, cpu.caches().size() < 2 || cpu.caches().get(1).shared()));
        CoreSpeeds speeds = settled.get();
        // bytes per clock per thread of the best trial, at the effective FMA clock the overlay writes
        ProbeOverlay.Clock effective = ProbeOverlay.effectiveClock(r, cpu);
        double clock = effective.hz();
        TextTable t = new TextTable("level", "kernel", "threads", "working set", "median", "best", "B/clk/thread").rightAlign(2, 4, 5, 6);
        for (BandwidthPoint p : r.bandwidth()) {
            t.row(p.level().key(), p.kernel().key(), Integer.toString(p.threads()), Units.formatBytes(p.workingSetBytes()),
                    gbps(p.medianBytesPerSecond()), gbps(p.bestBytesPerSecond()),
                    String.format(Locale.ROOT, "%.1f", p.bestBytesPerSecond() / p.threads() / clock));
        }
        for (FlopsPoint f : r.flops()) {
            t.row("fma", "fp" + f.bits(), Integer.toString(f.threads()), "-", gflops(f.medianFlopsPerSecond()), gflops(f.bestFlopsPerSecond()), "-");
        }
        w.print(t.render());
        w.printf(Locale.ROOT, "calibrate: B/clk at the %.2f GHz effective FMA clock (%s)%n", clock / 1e9, effective.from());
        if (speeds != null) {
            w.printf(Locale.ROOT, "calibrate: fp32 FMA per CPU, one pinned thread each (median of %d rounds): %s%n", CoreSpeeds.ROUNDS, speeds.describe());
            if (speeds.spread() < CoreSpeeds.EQUAL) {
                spec.commandLine().getErr().printf(Locale.ROOT, "calibrate: warning: the CPUs are not equal: the slowest runs FMA at %.2fx the fastest"
                        + " (a VM whose host runs another tenant beside it?); runs on more than one thread go at the slowest one's pace;"
                        + " a probe taken now may draw a rate the tenant broke: probe again and merge with calibrate --median P1,P2,P3%n", speeds.spread());
            }
        }
        if (team.present()) {
            w.printf(Locale.ROOT, "calibrate: team of %d pinned threads on %d physical cores (%s); fp32 FMA all at once %.3f of %d x one%n",
                    team.threads(), team.cores(), teamCores > 0 ? "sysfs topology" : "topology not readable: one core per thread assumed",
                    team.fma(), team.threads());
            if (team.cores() < team.threads()) {
                spec.commandLine().getErr().printf(Locale.ROOT, "calibrate: note: the %d threads share %d core%s (SMT siblings): runs on %d threads are"
                        + " predicted at the team's FMA pace (%.2f of %d cores' in-core throughput) and one core's L1 and L2 per sibling pair%n",
                        team.threads(), team.cores(), team.cores() == 1 ? "" : "s", team.threads(), team.fma(), team.threads());
            }
        }
        KernelRates k = r.kernels();
        w.printf(Locale.ROOT, "calibrate: kernel in-core rates (ns): dense %.3g per vector FMA (narrow %.3g); row body per entry %.3g / %.3g / %.3g / %.3g"
                + " at 8 / 4 / 2 / 1 vectors, %.3g per row and block, %.3g per row of the tight loops; coo %.3g per triple, %.3g per row; bsr4x4 %.3g per block-strip (narrow %.3g), %.3g per tile and strip; 2:4 %.3g per slot, %.3g per row; general-path 2- and 1-vector blocks %.3g / %.3g per entry;%s"
                + " launch %.3g us, fork/join %.3g us; transfer overlap %.2f (dense's own %s)%n",
                k.denseFmaSeconds() * 1e9, k.denseNarrowFmaSeconds() * 1e9, k.block8Seconds() * 1e9, k.block4Seconds() * 1e9,
                k.block2Seconds() * 1e9, k.oneVectorSeconds() * 1e9, k.rowBlockSeconds() * 1e9, k.wholeRowSeconds() * 1e9, k.cooEntrySeconds() * 1e9, k.cooRowSeconds() * 1e9, k.bsrWideSeconds() * 1e9,
                k.bsrNarrowSeconds() * 1e9, k.bsrTileSeconds() * 1e9, k.nmSlotSeconds() * 1e9, k.nmRowSeconds() * 1e9, k.split2Seconds() * 1e9, k.split1Seconds() * 1e9,
                k.oneColumn() == null ? "" : String.format(Locale.ROOT, " at N = 1 the gather dot %.3g per vector, %.3g per row, %.3g per tail entry,"
                        + " dense %.3g per vector FMA, %.3g per row, A from L2 at %s and from L3 at %s; SELL %.3g per slot vector, %.3g per chunk and column, %.3g per transposed element of B;",
                        k.oneColumn().spmvVectorSeconds() * 1e9, k.oneColumn().spmvRowSeconds() * 1e9,
                        k.oneColumn().spmvTailSeconds() * 1e9, k.oneColumn().gemvFmaSeconds() * 1e9, k.oneColumn().gemvRowSeconds() * 1e9,
                        probedRate(k.oneColumn().gemvL2BytesPerSecond()), probedRate(k.oneColumn().gemvL3BytesPerSecond()),
                        k.oneColumn().sellSlotSeconds() * 1e9, k.oneColumn().sellChunkSeconds() * 1e9, k.oneColumn().sellTransposeSeconds() * 1e9),
                k.launchSeconds() * 1e6, k.forkJoinSeconds() * 1e6,
                k.overlap(), k.denseL2() == null ? "not probed" : String.format(Locale.ROOT, "%.2f", k.denseL2().transfer().overlap()));
        KernelRateProbe.RoundSpeeds rounds = kernelProbe.roundSpeeds();
        if (rounds != null) {
            w.println("calibrate: kernel rates' rounds: " + rounds.describe());
            if (!rounds.perRowSolved()) {
                spec.commandLine().getErr().printf(Locale.ROOT, "calibrate: warning: coo's or the N:M decode's per-row cost, or a one-token (N = 1) rate, solved to 0, or a csr body rate below its FMAs,"
                        + " after %d extra rounds (a disturbed minute?): their rates may be off (a one-token body whose rate solved to 0 is"
                        + " left out of the spec, and its N = 1 runs are counted as older probes measured them); probe again and merge with"
                        + " calibrate --median P1,P2,P3%n",
                        rounds.extraRounds());
            }
            if (rounds.quietRounds() == 0) {
                spec.commandLine().getErr().printf(Locale.ROOT, "calibrate: warning: no round of the kernel rates ran with the machine at %.2f of its"
                        + " FMA peak (another tenant on the core?): the rates may be slow; probe again and merge with calibrate --median P1,P2,P3%n",
                        KernelRateProbe.QUIET_SPEED);
            }
        }
        List<String> provenance = new ArrayList<>(List.of(
                "Probed by sparseprof calibrate --probe on " + r.cpuModel() + " (" + r.cores() + " cores, Vector API "
                        + r.vectorBits() + " bits)",
                "date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + String.format(Locale.ROOT, ", probe took %.1f s", r.elapsedSeconds()),
                "command: sparseprof calibrate --probe --preset " + preset + " --out " + out,
                "Roofs are the best of " + ProbeSettings.DEFAULT.trials() + " short trials (read kernel, STREAM byte counting); the machine may be shared."));
        if (rounds != null) provenance.add("Kernel rates' rounds: " + rounds.describe());
        SpecOverlay overlay = ProbeOverlay.of(r, cpu, presetFor(preset, out), provenance, speeds, teamCores);
        overlay.check(out.toAbsolutePath().getParent());
        AtomicFiles.writeString(out, overlay.toYaml());
        w.printf(Locale.ROOT, "calibrate: probe took %.1f s; wrote %s (preset %s + measured overrides)%n", r.elapsedSeconds(), out, preset);
        return 0;
    }

    /** The preset's cache geometry, what the probe falls back to where sysfs says nothing (levels it lacks: CacheSizes.FALLBACK's). */
    static CacheSizes presetSizes(CpuSpec cpu) {
        long[] size = new long[3];
        Integer[] ways = new Integer[3];
        for (int i = 0; i < 3; i++) {
            boolean has = i < cpu.caches().size();
            size[i] = has ? cpu.caches().get(i).sizeBytes() : CacheSizes.FALLBACK.sizeBytes(i + 1);
            ways[i] = has ? cpu.caches().get(i).ways() : CacheSizes.FALLBACK.ways().get(i);
        }
        return new CacheSizes(size[0], size[1], size[2], List.of(ways), cpu.caches().get(0).lineBytes(), false);
    }

    private static String gbps(double v) {
        return String.format(Locale.ROOT, "%.1f GB/s", v / 1e9);
    }

    private static String gflops(double v) {
        return String.format(Locale.ROOT, "%.1f GFLOP/s", v / 1e9);
    }

    /** A probed bandwidth for the kernel-rates line ({@link #gbps}), or {@code no rate} where the probe measured none (0). */
    private static String probedRate(double bytesPerSecond) {
        return bytesPerSecond > 0 ? gbps(bytesPerSecond) : "no rate";
    }
}
