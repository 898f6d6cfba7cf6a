package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.CoreTeam;
import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.measure.probe.BandwidthPoint;
import dev.sparseprof.measure.probe.CacheSizes;
import dev.sparseprof.measure.probe.CoreSpeeds;
import dev.sparseprof.measure.probe.FlopsPoint;
import dev.sparseprof.measure.probe.KernelRates;
import dev.sparseprof.measure.probe.MemoryLevel;
import dev.sparseprof.measure.probe.ProbeResult;
import dev.sparseprof.measure.probe.StreamKernel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeOverlayTest {
    /** A hand-made probe: read bandwidth 100/50/20/10 GB/s per level (x threads), triad half of it. */
    static ProbeResult probe() {
        List<BandwidthPoint> bw = new ArrayList<>();
        double[] read = {100e9, 50e9, 20e9, 10e9};
        for (MemoryLevel l : MemoryLevel.values()) {
            for (int t = 1; t <= 2; t++) {
                double r = read[l.ordinal()] * t;
                bw.add(new BandwidthPoint(l, StreamKernel.READ, t, 1 << 20, r * 0.9, r));
                bw.add(new BandwidthPoint(l, StreamKernel.TRIAD, t, 1 << 20, r * 0.4, r / 2));
            }
        }
        List<FlopsPoint> fl = List.of(new FlopsPoint(64, 1, 60e9, 64e9), new FlopsPoint(64, 2, 120e9, 128e9),
                new FlopsPoint(32, 1, 120e9, 128e9), new FlopsPoint(32, 2, 240e9, 256e9));
        CacheSizes caches = new CacheSizes(48L << 10, 2L << 20, 480L << 20, List.of(12, 16, 16), 64, true);
        return new ProbeResult("Test CPU: model 1", 2, caches, 512, bw, fl, 1.0);
    }

    @Test
    void theOverlayLoadsAndCarriesTheMeasuredRoofs() {
        CpuSpec base = (CpuSpec) HardwareSpecs.load("epyc-zen5-2c");
        SpecOverlay o = ProbeOverlay.of(probe(), base, "epyc-zen5-2c", List.of("test probe"));
        String yaml = o.toYaml();
        assertTrue(yaml.startsWith("# test probe\nversion: 1\npreset: epyc-zen5-2c\n"), yaml);
        CpuSpec spec = (CpuSpec) o.check();
        assertEquals(2, spec.cores());
        assertEquals(2L << 20, spec.caches().get(1).sizeBytes(), "sysfs L2 size");
        assertEquals(200e9, spec.caches().get(0).bandwidthBytesPerSecond(), 1e7, "L1 read, 2 threads, best");
        assertEquals(10e9, spec.dram().bandwidth().at(1), 1e7);
        assertEquals(20e9, spec.dram().bandwidth().at(2), 1e7);
        // 64 GFLOP/s per core / (8 lanes x 2 ports x 2) = 2 GHz effective FMA clock
        assertEquals(2.0e9, spec.clockHertz(), 1e6);
        assertEquals(base.caches().get(0).latencyCycles(), spec.caches().get(0).latencyCycles(), 1e-9, "latency kept");
        assertTrue(yaml.contains("name: \"Test CPU: model 1, 2 cores (probed)\""), yaml);
        assertTrue(yaml.contains("; all 2 threads at once: fp32 256.0 GFLOP/s, 1.000 of 2 x one"), yaml);
    }

    /** Two vCPUs that share one core read about half of twice one thread's FMA throughput: the clock's note says so. */
    @Test
    void theClocksNoteRecordsTheFmaThroughputOfAllThreadsAtOnce() {
        ProbeResult smt = new ProbeResult("Test CPU: model 1", 2, probe().caches(), 512, probe().bandwidth(),
                List.of(new FlopsPoint(64, 1, 60e9, 64e9), new FlopsPoint(32, 1, 120e9, 128e9), new FlopsPoint(32, 2, 130e9, 134.4e9)), 1.0);
        assertEquals("; all 2 threads at once: fp32 134.4 GFLOP/s, 0.525 of 2 x one", ProbeOverlay.concurrentFmaNote(smt, 2));
        assertEquals("", ProbeOverlay.concurrentFmaNote(smt, 1));
    }

    @Test
    void theDenseChecksOverlapReachesTheSpecAsItsOwnKeyAndItsNote() {
        var dense = new KernelRates.DenseL2(256, 64, new KernelRates.Transfer(0.23e-9, 0.2e-9, 0.12e-9, 0.75));
        KernelRates k = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, dense, null, null, 30, null);
        SpecOverlay o = ProbeOverlay.of(probe().withKernels(k), (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t"));
        CpuSpec spec = (CpuSpec) o.check();
        assertEquals(0.75, spec.inCore().denseOverlap(), 1e-9);
        assertEquals(0.5, spec.inCore().overlap(), 1e-9, "the shared overlap stays csr's");
        assertTrue(o.toYaml().contains("denseOverlap 0.75: dense at K 256, N 64"), o.toYaml());
    }

    @Test
    void theOneColumnRatesReachTheSpecInCyclesOfItsClock() {
        KernelRates k = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9));
        SpecOverlay o = ProbeOverlay.of(probe().withKernels(k), (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t"));
        CpuSpec spec = (CpuSpec) o.check();
        double clock = spec.clockHertz();
        assertEquals(5e-9 * clock, spec.inCore().oneColumn().spmvVectorCycles(), 1e-6);
        assertEquals(3e-9 * clock, spec.inCore().oneColumn().spmvRowCycles(), 1e-6);
        assertEquals(0.3e-9 * clock, spec.inCore().oneColumn().spmvTailCycles(), 1e-6);
        assertEquals(0.2e-9 * clock, spec.inCore().oneColumn().gemvFmaCycles(), 1e-6);
        assertEquals(2e-9 * clock, spec.inCore().oneColumn().gemvRowCycles(), 1e-6);
        assertFalse(spec.inCore().oneColumn().sellPresent(), "no SELL rates: none written");
        KernelRates sell = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30,
                new KernelRates.OneColumn(5e-9, 3e-9, 0.3e-9, 0.2e-9, 2e-9, 5.5e-9, 20e-9, 0.7e-9, 92e9, 61e9));
        CpuSpec withSell = (CpuSpec) ProbeOverlay.of(probe().withKernels(sell), (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t")).check();
        assertEquals(5.5e-9 * clock, withSell.inCore().oneColumn().sellSlotCycles(), 1e-6);
        assertEquals(20e-9 * clock, withSell.inCore().oneColumn().sellChunkCycles(), 1e-6);
        assertEquals(0.7e-9 * clock, withSell.inCore().oneColumn().sellTransposeCycles(), 1e-6);
        assertEquals(92e9, withSell.inCore().oneColumn().gemvL2BytesPerSecond(), 1e6, "the gemv's L2 rate, in GB/s");
        assertEquals(61e9, withSell.inCore().oneColumn().gemvL3BytesPerSecond(), 1e6, "and its L3 rate");
        assertFalse(spec.inCore().oneColumn().gemvL2Present(), "no L2 rate: none written");
        KernelRates without = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, null);
        SpecOverlay old = ProbeOverlay.of(probe().withKernels(without), (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t"));
        assertFalse(((CpuSpec) old.check()).inCore().oneColumn().spmvPresent());
        assertFalse(((CpuSpec) old.check()).inCore().oneColumn().gemvPresent());
        assertFalse(old.toYaml().contains("spmv") || old.toYaml().contains("gemv"), old.toYaml());
    }

    @Test
    void theProbedGatherBandwidthsReachTheSpecAndItsNote() {
        var gather = new KernelRates.Gather(50_000, 20e6, 90e-6, 200e-6, 110e-6, 2, 120e9, 210e9, 0.62);
        var wide = new KernelRates.Gather(25_000, 20e6, 90e-6, 180e-6, 100e-6, 2, 135e9, 240e9, 0.71);
        KernelRates k = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, gather, wide, 30, null);
        SpecOverlay o = ProbeOverlay.of(probe().withKernels(k), (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t"));
        CpuSpec spec = (CpuSpec) o.check();
        assertFalse(spec.inCore().denseOverlapProbed(), "no dense check: no denseOverlap key");
        assertFalse(o.toYaml().contains("denseOverlap"), o.toYaml());
        assertEquals(120e9, spec.inCore().l2Gather().coreBytesPerSecond(), 1e6);
        assertEquals(210e9, spec.inCore().l2Gather().allBytesPerSecond(), 1e6);
        assertEquals(2, spec.inCore().l2Gather().threads());
        assertTrue(o.toYaml().contains("l2Gather: one CSR call of 50000 random-column entries"), o.toYaml());
        assertEquals(135e9, spec.inCore().l2Gather().wideCoreBytesPerSecond(), 1e6);
        assertEquals(120e9, spec.inCore().l2Gather().perCoreBytesPerSecond(1, 1), 1e6, "rows walked in one block");
        assertEquals(135e9, spec.inCore().l2Gather().perCoreBytesPerSecond(1, 2), 1e6, "rows walked in two blocks");
        assertEquals(120e9, spec.inCore().l2Gather().perCoreBytesPerSecond(2, 3), 1e6, "two cores: the all-threads figure over its threads");
        assertTrue(o.toYaml().contains("l2GatherWide: one CSR call of 25000 random-column entries at 16 vectors"), o.toYaml());
        // each rate with the overlap it was solved with; the in-core overlap stays the transfer check's
        assertEquals(0.62, spec.inCore().l2Gather().overlap(1, 0.5), 1e-9);
        assertEquals(0.71, spec.inCore().l2Gather().overlap(2, 0.5), 1e-9);
        assertEquals(0.5, spec.inCore().overlap(), 1e-9);
        assertTrue(o.toYaml().contains("gatherWideOverlap: 0.710"), o.toYaml());
        assertFalse(spec.inCore().fullyAssociativeReuse(), "a probe solves its rates with the L1's sets and says so (l1Reuse)");
        assertEquals(0, spec.inCore().slowestCore()); // no per-CPU check: equal cores
        // unequal CPUs: the slowest over the first goes into the spec, each CPU's rate into the note
        var speeds = new CoreSpeeds(new int[] {0, 1}, new double[] {200e9, 130e9});
        SpecOverlay u = ProbeOverlay.of(probe().withKernels(k), (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t"), speeds);
        CpuSpec unequal = (CpuSpec) u.check();
        assertEquals(0.65, unequal.inCore().slowestCore(), 1e-9);
        assertEquals(1 / 0.65, unequal.inCore().coreStretch(2), 1e-9);
        assertTrue(u.toYaml().contains("cpu 0 200.0 GFLOP/s, cpu 1 130.0 GFLOP/s"), u.toYaml());
    }

    /**
     * The probe's team goes into the spec: its threads, the physical cores under them (sysfs topology:
     * SMT siblings give fewer) and its FMA pace beside each other, which the model then applies to
     * calls on as many threads; without a readable topology each thread counts as a core.
     */
    @Test
    void theTeamsCoresAndFmaPaceGoIntoTheSpec() {
        KernelRates k = new KernelRates(512, 1e-10, 1e-10, 2e-9, 1e-9, 1e-9, 5e-10, 5e-9, 2e-9, 3e-10, 3e-9, 2e-8, 6e-9, 1e-9, 1e-8, 1e-8,
                1e-9, 5e-10, 1e-6, 2e-6, 0.5, 3e-9, 2e-9, 2e-9, null, null, null, 30, null);
        ProbeResult p = probe();
        // one thread 128 GFLOP/s, both at once 160: SMT siblings, 0.625 of two cores
        List<FlopsPoint> fl = List.of(new FlopsPoint(64, 1, 60e9, 64e9), new FlopsPoint(64, 2, 70e9, 72e9),
                new FlopsPoint(32, 1, 120e9, 128e9), new FlopsPoint(32, 2, 150e9, 160e9));
        ProbeResult smt = new ProbeResult(p.cpuModel(), p.cores(), p.caches(), p.vectorBits(), p.bandwidth(), fl, 1.0).withKernels(k);
        CpuSpec base = (CpuSpec) HardwareSpecs.load("epyc-zen5-2c");
        SpecOverlay o = ProbeOverlay.of(smt, base, "epyc-zen5-2c", List.of("t"), null, 1);
        CpuSpec spec = (CpuSpec) o.check();
        assertEquals(new CoreTeam(2, 1, 0.625), spec.inCore().team());
        assertEquals(1, spec.privateCacheInstances());
        assertEquals(1 / 0.625, spec.inCore().coreStretch(2), 1e-9);
        assertTrue(o.toYaml().contains("teamCores: physical cores under the team's 2 CPUs (sysfs topology)"), o.toYaml());
        // the topology unknown: one core per thread, the pace still measured
        SpecOverlay unknown = ProbeOverlay.of(smt, base, "epyc-zen5-2c", List.of("t"), null, 0);
        CpuSpec u = (CpuSpec) unknown.check();
        assertEquals(new CoreTeam(2, 2, 0.625), u.inCore().team());
        assertTrue(unknown.toYaml().contains("one core per thread assumed"), unknown.toYaml());
        // the fixture's probe: two cores at full pace
        CpuSpec apart = (CpuSpec) ProbeOverlay.of(probe().withKernels(k), base, "epyc-zen5-2c", List.of("t"), null, 2).check();
        assertEquals(new CoreTeam(2, 2, 1.0), apart.inCore().team());
        assertEquals(1.0, apart.inCore().coreStretch(2), 1e-12);
    }

    @Test
    void theLessDisturbedFmaWidthSetsTheClock() {
        ProbeResult p = probe();
        List<FlopsPoint> fl = List.of(new FlopsPoint(64, 1, 20e9, 32e9), new FlopsPoint(32, 1, 120e9, 128e9));
        ProbeResult disturbed = new ProbeResult(p.cpuModel(), p.cores(), p.caches(), p.vectorBits(), p.bandwidth(), fl, 1.0);
        CpuSpec spec = (CpuSpec) ProbeOverlay.of(disturbed, (CpuSpec) HardwareSpecs.load("epyc-zen5-2c"), "epyc-zen5-2c", List.of("t")).check();
        // fp64 gives 32 / (8 x 2 x 2) = 1 GHz, fp32 128 / (16 x 2 x 2) = 2 GHz: the higher one
        assertEquals(2.0e9, spec.clockHertz(), 1e6);
    }

    @Test
    void scalarsAreQuotedOnlyWhenNeeded() {
        assertEquals("31.20GB/s", SpecOverlay.scalar("31.20GB/s"));
        assertEquals("\"a: b\"", SpecOverlay.scalar("a: b"));
        assertEquals("\"say \\\"x\\\"\"", SpecOverlay.scalar("say \"x\""));
    }
}
