package dev.sparseprof.calibrate;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.CoreTeam;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.GatherRates;
import dev.sparseprof.hw.OneColumnRates;
import dev.sparseprof.measure.probe.BandwidthPoint;
import dev.sparseprof.measure.probe.CoreSpeeds;
import dev.sparseprof.measure.probe.FlopsPoint;
import dev.sparseprof.measure.probe.KernelRates;
import dev.sparseprof.measure.probe.MemoryLevel;
import dev.sparseprof.measure.probe.ProbeResult;
import dev.sparseprof.measure.probe.StreamKernel;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a {@link ProbeResult} into a spec overlay on a CPU preset: the core count, the cache
 * geometry from sysfs with each level's measured bandwidth (all threads, read kernel: SpMM streams
 * its operands), the DRAM bandwidth curve (read, 1 thread and all), and the clock replaced by the
 * effective FMA clock, i.e. measured FMA FLOP/s per core / (lanes x FMA ports x 2) (fp64 or fp32,
 * whichever gives the higher clock: the less disturbed trial on a shared machine), so the
 * preset's derived vector peak equals the measured one. Each roof is the best trial (what the
 * machine can do; the medians, which a shared VM pulls down, are printed by the command). Latencies
 * and overheads stay the preset's. Triad figures go into comments.
 */
public final class ProbeOverlay {
    private ProbeOverlay() {}

    /** The effective FMA clock and what it was derived from. */
    public record Clock(double hz, String from) {}

    /**
     * The effective FMA clock of {@code probe} on {@code base}'s FMA ports: fp64 FLOP/s on 1 core / (lanes x
     * FMA ports x 2), or fp32's over twice the lanes where that is higher.
     */
    public static Clock effectiveClock(ProbeResult probe, CpuSpec base) {
        FlopsPoint fma1 = probe.flops(64, 1).orElseThrow(() -> new SparseprofException("probe: no fp64 FMA point"));
        int simdBits = Math.min(base.simdBits(), probe.vectorBits());
        double lanes = simdBits / 64.0;
        double clock = fma1.bestFlopsPerSecond() / (lanes * base.fmaPorts() * 2);
        String from = String.format(Locale.ROOT, "fp64 %s on 1 core / (%d lanes x %d ports x 2)",
                Quantities.gflops(fma1.bestFlopsPerSecond()), (int) lanes, base.fmaPorts());
        // fp32 runs the same FMA pipes at twice the lanes: on a shared machine the width whose best
        // trial was disturbed less gives the higher (truer) clock.
        FlopsPoint fp32 = probe.flops(32, 1).orElse(null);
        if (fp32 != null && fp32.bestFlopsPerSecond() / (2 * lanes * base.fmaPorts() * 2) > clock) {
            clock = fp32.bestFlopsPerSecond() / (2 * lanes * base.fmaPorts() * 2);
            from = String.format(Locale.ROOT, "fp32 %s on 1 core / (%d lanes x %d ports x 2), above fp64's %s",
                    Quantities.gflops(fp32.bestFlopsPerSecond()), (int) (2 * lanes), base.fmaPorts(), Quantities.gflops(fma1.bestFlopsPerSecond()));
        }
        return new Clock(clock, from);
    }

    /**
     * {@code ; all N threads at once: fp32 X GFLOP/s, R of N x one}: the FMA throughput of every
     * thread at once against one thread's, the spec's {@code cpu.inCore.teamFma} ({@link #team}).
     * Near 1 where each thread has a core of its own; about 0.5 where two vCPUs are SMT siblings of
     * one core, which the CPUs' one-at-a-time speeds ({@code slowestCore}) do not see. Empty with one
     * thread or no such point.
     */
    static String concurrentFmaNote(ProbeResult probe, int threads) {
        if (threads < 2) return "";
        FlopsPoint one = probe.flops(32, 1).orElse(null);
        FlopsPoint all = probe.flops(32, threads).orElse(null);
        if (one == null || all == null || !(one.bestFlopsPerSecond() > 0)) return "";
        return String.format(Locale.ROOT, "; all %d threads at once: fp32 %s, %.3f of %d x one", threads, Quantities.gflops(all.bestFlopsPerSecond()),
                all.bestFlopsPerSecond() / (threads * one.bestFlopsPerSecond()), threads);
    }

    public static SpecOverlay of(ProbeResult probe, CpuSpec base, String preset, List<String> provenance) {
        return of(probe, base, preset, provenance, null);
    }

    /**
     * With each CPU's pinned FMA throughput ({@code speeds}, null where affinity could not be set):
     * the spec's {@code cpu.inCore.slowestCore} and its note.
     */
    public static SpecOverlay of(ProbeResult probe, CpuSpec base, String preset, List<String> provenance, CoreSpeeds speeds) {
        return of(probe, base, preset, provenance, speeds, 0);
    }

    /**
     * The probe's team of all its threads ({@code hw.CoreTeam}): {@code teamCores}, the physical cores
     * under its CPUs (measure.probe.CoreTopology; 0: not known, taken as one per thread), and its fp32
     * FMA throughput over as many times one thread's (the best trials; NaN where either is missing).
     * {@link CoreTeam#NONE} with one thread.
     */
    public static CoreTeam team(ProbeResult probe, int threads, int teamCores) {
        if (threads < 2) return CoreTeam.NONE;
        FlopsPoint one = probe.flops(32, 1).orElse(null);
        FlopsPoint all = probe.flops(32, threads).orElse(null);
        double fma = one == null || all == null || !(one.bestFlopsPerSecond() > 0) ? Double.NaN
                : Math.min(2, all.bestFlopsPerSecond() / (threads * one.bestFlopsPerSecond()));
        return new CoreTeam(threads, teamCores > 0 ? Math.min(teamCores, threads) : threads, fma);
    }

    /** With the physical cores under the probe's team ({@code teamCores}; 0: not known). */
    public static SpecOverlay of(ProbeResult probe, CpuSpec base, String preset, List<String> provenance, CoreSpeeds speeds, int teamCores) {
        int all = probe.cores();
        Map<String, Object> cpu = new LinkedHashMap<>();
        Map<String, String> notes = new LinkedHashMap<>();
        cpu.put("cores", Integer.toString(all));
        notes.put("cpu.cores", "processors the JVM sees");

        int simdBits = Math.min(base.simdBits(), probe.vectorBits());
        Clock effective = effectiveClock(probe, base);
        double clock = effective.hz();
        String from = effective.from();
        cpu.put("clock", Quantities.gigahertz(clock));
        notes.put("cpu.clock", "effective FMA clock: measured " + from + concurrentFmaNote(probe, all));
        cpu.put("simdWidth", simdBits + "bits");
        notes.put("cpu.simdWidth", "the Vector API's preferred width on this JVM and CPU");

        List<Object> caches = new ArrayList<>();
        MemoryLevel[] levels = {MemoryLevel.L1, MemoryLevel.L2, MemoryLevel.L3};
        int n = Math.min(base.caches().size(), levels.length);
        StringBuilder cacheNote = new StringBuilder("size/ways/line from sysfs; bandwidth = read, " + all + " threads");
        for (int i = 0; i < n; i++) {
            CacheLevel b = base.caches().get(i);
            BandwidthPoint read = point(probe, levels[i], StreamKernel.READ, all);
            caches.add(CpuOverrides.cache(b.name(), probe.caches().sizeBytes(i + 1), probe.caches().ways().get(i),
                    probe.caches().lineBytes(), b.latencyCycles(), b.shared(), read.bestBytesPerSecond()));
            cacheNote.append("; ").append(b.name()).append(" triad ")
                    .append(Quantities.gigabytesPerSecond(point(probe, levels[i], StreamKernel.TRIAD, all).bestBytesPerSecond()));
        }
        cpu.put("caches", caches);
        notes.put("cpu.caches", cacheNote.toString());

        Map<String, Object> dram = new LinkedHashMap<>();
        List<Object> curve = new ArrayList<>();
        curve.add(CpuOverrides.curvePoint(1, point(probe, MemoryLevel.DRAM, StreamKernel.READ, 1).bestBytesPerSecond()));
        if (all > 1) curve.add(CpuOverrides.curvePoint(all, point(probe, MemoryLevel.DRAM, StreamKernel.READ, all).bestBytesPerSecond()));
        dram.put("bandwidth", curve);
        cpu.put("dram", dram);
        BandwidthPoint dramPoint = point(probe, MemoryLevel.DRAM, StreamKernel.READ, 1);
        notes.put("cpu.dram.bandwidth", "read stream over " + Quantities.size(roundMiB(dramPoint.workingSetBytes()))
                + (dramPoint.workingSetBytes() <= probe.caches().l3Bytes() ? " (not larger than the L3: may be partly cache-resident)" : "")
                + "; triad 1 thread " + Quantities.gigabytesPerSecond(point(probe, MemoryLevel.DRAM, StreamKernel.TRIAD, 1).bestBytesPerSecond()));

        cpu.put("model", probe.cpuModel());
        notes.put("cpu.model", "/proc/cpuinfo model name: measurements from another CPU are refused against this spec");
        Map<String, Object> overrides = new LinkedHashMap<>();
        overrides.put("name", probe.cpuModel() + ", " + all + " cores (probed)");
        overrides.put("cpu", cpu);
        KernelRates k = probe.kernels();
        if (k != null) {
            Map<String, Object> rates = inCore(k, clock, point(probe, MemoryLevel.L2, StreamKernel.READ, 1).bestBytesPerSecond(),
                    point(probe, MemoryLevel.L3, StreamKernel.READ, 1).bestBytesPerSecond());
            if (speeds != null) rates.put("slowestCore", String.format(Locale.ROOT, "%.3f", speeds.slowestOverFirst()));
            CoreTeam team = team(probe, all, teamCores);
            CpuOverrides.team(rates, team);
            cpu.put("inCore", rates);
            notes.put("cpu.inCore", String.format(Locale.ROOT,
                    "probed: the project's kernels on in-L1 matrices, cycles at the %s effective clock, %d-bit vectors; overlap %.2f: "
                            + "CSR with B in L2 measured %.3g ns per entry, in-core %.3g + L2 %.3g ns (sum %.3g, max %.3g)",
                    Quantities.gigahertz(clock), k.vectorBits(), k.overlap(),
                    k.l2MeasuredSeconds() * 1e9, k.l2CoreSeconds() * 1e9, k.l2TransferSeconds() * 1e9,
                    (k.l2CoreSeconds() + k.l2TransferSeconds()) * 1e9, Math.max(k.l2CoreSeconds(), k.l2TransferSeconds()) * 1e9)
                    + denseNote(k.denseL2()) + gatherNote("l2Gather", k.gather(), 8) + gatherNote("l2GatherWide", k.gatherWide(), 16)
                    + speedNote(speeds) + teamNote(team, teamCores));
            Map<String, Object> overheads = new LinkedHashMap<>();
            overheads.put("launch", Quantities.microseconds(k.launchSeconds()));
            overheads.put("forkJoin", Quantities.microseconds(k.forkJoinSeconds()));
            overrides.put("overheads", overheads);
            notes.put("overheads", "probed: launch = one csr call of one entry on 1 thread; forkJoin = the same on all threads, less launch, per further thread");
        }
        return new SpecOverlay(preset, provenance, overrides, notes);
    }

    /** The {@code cpu.inCore} section: the micro-kernels' seconds per unit in cycles of the effective clock. */
    static Map<String, Object> inCore(KernelRates k, double clockHertz, double l2CoreBytesPerSecond, double l3CoreBytesPerSecond) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("vectorBits", k.vectorBits() + "bits");
        m.put("denseFma", Quantities.cycles(k.denseFmaSeconds() * clockHertz));
        m.put("denseNarrowFma", Quantities.cycles(k.denseNarrowFmaSeconds() * clockHertz));
        m.put("block8", Quantities.cycles(k.block8Seconds() * clockHertz));
        m.put("block4", Quantities.cycles(k.block4Seconds() * clockHertz));
        m.put("block2", Quantities.cycles(k.block2Seconds() * clockHertz));
        m.put("oneVector", Quantities.cycles(k.oneVectorSeconds() * clockHertz));
        m.put("rowBlock", Quantities.cycles(k.rowBlockSeconds() * clockHertz));
        m.put("wholeRow", Quantities.cycles(k.wholeRowSeconds() * clockHertz));
        m.put("cooEntry", Quantities.cycles(k.cooEntrySeconds() * clockHertz));
        m.put("cooRow", Quantities.cycles(k.cooRowSeconds() * clockHertz));
        m.put("bsrWide", Quantities.cycles(k.bsrWideSeconds() * clockHertz));
        m.put("bsrNarrow", Quantities.cycles(k.bsrNarrowSeconds() * clockHertz));
        m.put("nmSlot", Quantities.cycles(k.nmSlotSeconds() * clockHertz));
        m.put("bsrTile", Quantities.cycles(k.bsrTileSeconds() * clockHertz));
        m.put("nmRow", Quantities.cycles(k.nmRowSeconds() * clockHertz));
        m.put("nmDecode", "serial"); // nmSlot and nmRow: the decode pass alone, measured at 4 vectors (KernelRateProbe)
        m.put("split2", Quantities.cycles(k.split2Seconds() * clockHertz));
        m.put("split1", Quantities.cycles(k.split1Seconds() * clockHertz));
        m.put("l2PerCore", Quantities.gigabytesPerSecond(l2CoreBytesPerSecond));
        m.put("l3PerCore", Quantities.gigabytesPerSecond(l3CoreBytesPerSecond));
        m.put("overlap", String.format(Locale.ROOT, "%.3f", k.overlap()));
        if (k.denseL2() != null) m.put("denseOverlap", String.format(Locale.ROOT, "%.3f", k.denseL2().transfer().overlap()));
        if (k.oneColumn() != null) {
            KernelRates.OneColumn v = k.oneColumn();
            CpuOverrides.oneColumn(m, new OneColumnRates(v.spmvVectorSeconds() * clockHertz, v.spmvRowSeconds() * clockHertz,
                    v.spmvTailSeconds() * clockHertz, v.gemvFmaSeconds() * clockHertz, v.gemvRowSeconds() * clockHertz,
                    v.sellSlotSeconds() * clockHertz, v.sellChunkSeconds() * clockHertz, v.sellTransposeSeconds() * clockHertz,
                    v.gemvL2BytesPerSecond(), v.gemvL3BytesPerSecond()));
        }
        if (k.gather() != null) {
            KernelRates.Gather g = k.gather();
            KernelRates.Gather w = k.gatherWide();
            // the probe solves its overlap and gather rates with the set-associative L1 rule
            CpuOverrides.gather(m, new GatherRates(g.coreBytesPerSecond(), g.allBytesPerSecond(), g.threads(),
                    w == null ? 0 : w.coreBytesPerSecond(), w == null ? 0 : w.allBytesPerSecond(), g.overlap(), w == null ? Double.NaN : w.overlap()), false);
        }
        return m;
    }

    /** What the per-CPU FMA check measured, for the spec's note. */
    static String speedNote(CoreSpeeds speeds) {
        return speeds == null ? "" : "; slowestCore: fp32 FMA, one thread pinned to each CPU, " + speeds.describe();
    }

    /** Where the team's cores came from, for the spec's note. */
    static String teamNote(CoreTeam team, int teamCores) {
        if (!team.present()) return "";
        return String.format(Locale.ROOT, "; teamCores: %s", teamCores > 0
                ? "physical cores under the team's " + team.threads() + " CPUs (sysfs topology)"
                : "the topology could not be read: one core per thread assumed");
    }

    /** What dense's transfer check measured, for the spec's note. */
    static String denseNote(KernelRates.DenseL2 d) {
        if (d == null) return "";
        KernelRates.Transfer x = d.transfer();
        return String.format(Locale.ROOT, "; denseOverlap %.2f: dense at K %d, N %d (its packed block from L2) measured %.3g ns per vector FMA, "
                + "in-core %.3g + L2 %.3g ns", x.overlap(), d.k(), d.n(), x.measuredSeconds() * 1e9, x.coreSeconds() * 1e9, x.transferSeconds() * 1e9);
    }

    /** What the sustained gather measured, for the spec's note. */
    static String gatherNote(String key, KernelRates.Gather g, int vectors) {
        if (g == null) return "";
        return String.format(Locale.ROOT, "; %s: one CSR call of %d random-column entries at %d vectors, B in L2, took %.3g us on 1 thread "
                        + "(in-core %.3g us, %.3g MB of B rows from L2) and %.3g us on %d threads, overlap %.2f", key, g.entries(), vectors,
                g.measuredSeconds() * 1e6, g.coreSeconds() * 1e6, g.l2Bytes() / 1e6, g.allMeasuredSeconds() * 1e6, g.threads(), g.overlap());
    }

    private static long roundMiB(long bytes) {
        return Math.max(1, Math.round(bytes / (double) (1L << 20))) << 20;
    }

    private static BandwidthPoint point(ProbeResult probe, MemoryLevel level, StreamKernel kernel, int threads) {
        return probe.bandwidth(level, kernel, threads).orElseThrow(() -> new SparseprofException(
                "probe: no " + kernel.key() + " point for " + level.key() + " with " + threads + " threads"));
    }
}
