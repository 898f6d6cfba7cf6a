package dev.sparseprof.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.DType;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HardwareSpecsTest {
    @Test
    void everyPresetLoadsAndMatchesItsFile() {
        for (String preset : HardwareSpecs.presetNames()) {
            HardwareSpec s = HardwareSpecs.load(preset);
            assertTrue(s.parallelUnits() > 0, preset);
            assertTrue(s.cacheLevels().size() >= 2, preset);
        }
    }

    @Test
    void a100FiguresComeThroughWithUnits() {
        GpuSpec a = (GpuSpec) HardwareSpecs.load("a100-80gb");
        assertEquals(108, a.sms());
        assertEquals(1.41e9, a.clockHertz(), 1);
        assertEquals(192 * 1024, a.l1().sizeBytes());
        assertEquals(32, a.l1().sectorBytes());
        assertEquals(40L << 20, a.l2().sizeBytes());
        assertEquals(2039e9, a.hbmBytesPerSecond(), 1);
        assertEquals(312e12, a.peaks().flopsPerSecond(ComputeUnit.TENSOR, DType.F16), 1);
        assertEquals(624e12, a.peaks().flopsPerSecond(ComputeUnit.SPARSE_TENSOR, DType.F16), 1);
        assertEquals(190 / 1.41e9, a.dram().latencySeconds(), 1e-12);
        // The consistency check of hardware-facts.md: 108 SMs x 64 FP32 lanes x 2 x 1.41 GHz = 19.5 TF.
        assertEquals(108 * 64 * 2 * 1.41e9, a.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F32), 0.01e12);
    }

    @Test
    void presetPlusOverrideChangesOneNumber() {
        GpuSpec forty = (GpuSpec) HardwareSpecs.load("a100-40gb");
        GpuSpec eighty = (GpuSpec) HardwareSpecs.load("a100-80gb");
        assertEquals(1555e9, forty.hbmBytesPerSecond(), 1);
        assertEquals(eighty.sms(), forty.sms());
        assertEquals(eighty.l2(), forty.l2());
        GpuSpec custom = (GpuSpec) HardwareSpecs.parse("mine.yaml", "version: 1\npreset: a100-80gb\ngpu:\n  sms: 54\n");
        assertEquals(54, custom.sms());
        assertEquals(eighty.l1(), custom.l1());
    }

    @Test
    void cpuSpecDerivesPeaksAndBandwidthCurve() {
        CpuSpec c = (CpuSpec) HardwareSpecs.load("epyc-zen5-2c");
        assertEquals(2, c.cores());
        assertEquals(3, c.caches().size());
        assertEquals(48 * 1024, c.caches().get(0).sizeBytes());
        assertEquals(12, c.caches().get(0).ways());
        assertTrue(c.caches().get(2).shared());
        assertEquals(31e9, c.dram().bandwidth().at(1), 1);
        assertEquals(31e9, c.dram().bandwidth().at(2), 1); // flat past the last measured point
        assertEquals(2 * 3.7e9 * 16 * 2 * 2, c.peaks().flopsPerSecond(ComputeUnit.VECTOR, DType.F32), 1e6);
        assertEquals(24, c.missesInFlight());
        assertEquals(473e9, c.caches().get(1).bandwidthBytesPerSecond(), 1);
        assertEquals(2, c.overheads().gatherCycles(), 0);
        assertEquals(0.9, c.overheads().denseEfficiency(), 0);
    }

    @Test
    void realismParametersHaveDefaultsAndOverrides() {
        CpuSpec c = (CpuSpec) HardwareSpecs.parse("mine.yaml",
                "version: 1\npreset: epyc-zen5-2c\ncpu:\n  missesInFlight: 10\noverheads:\n  gather: 3cycles\n  denseEfficiency: 0.5\n");
        assertEquals(10, c.missesInFlight());
        assertEquals(3, c.overheads().gatherCycles(), 0);
        assertEquals(0.5, c.overheads().denseEfficiency(), 0);
        GpuSpec g = (GpuSpec) HardwareSpecs.load("a100-80gb");
        assertEquals(0, g.overheads().gatherCycles(), 0);
        assertEquals(1, g.overheads().denseEfficiency(), 0);
        CpuSpec spr = (CpuSpec) HardwareSpecs.parse("x.yaml", "version: 1\npreset: xeon-spr\n");
        assertEquals(16, spr.missesInFlight());
        assertEquals(0.9, spr.overheads().denseEfficiency(), 0); // the documented CPU default
    }

    @Test
    void forkJoinAddsPerFurtherThreadAndThePenaltyWeighsTheImbalance() {
        CpuSpec c = (CpuSpec) HardwareSpecs.parse("mine.yaml",
                "version: 1\npreset: epyc-zen5-2c\noverheads:\n  launch: 2us\n  forkJoin: 5us\n  imbalancePenalty: 0.5\n");
        assertEquals(2e-6, c.overheads().launchSeconds(1), 1e-15);
        assertEquals(12e-6, c.overheads().launchSeconds(3), 1e-15);
        assertEquals(1.1, c.overheads().penalizedImbalance(1.2), 1e-12);
        CpuSpec defaults = (CpuSpec) HardwareSpecs.parse("x.yaml", "version: 1\npreset: xeon-spr\n");
        assertEquals(1e-6, defaults.overheads().forkJoinSeconds(), 0);
        assertEquals(1.2, defaults.overheads().penalizedImbalance(1.2), 1e-12, "penalty 1: the schedule's factor as it is");
        GpuSpec g = (GpuSpec) HardwareSpecs.load("a100-80gb");
        assertEquals(0, g.overheads().forkJoinSeconds(), 0);
        assertEquals("bad.yaml: overheads.forkJoin: is a CPU term (a GPU kernel's fixed cost is launch)",
                messageOf("version: 1\npreset: a100-80gb\noverheads:\n  forkJoin: 1us\n"));
        assertEquals("bad.yaml: overheads.imbalancePenalty: must not be negative",
                messageOf("version: 1\npreset: epyc-zen5-2c\noverheads:\n  imbalancePenalty: -1\n"));
    }

    @Test
    void filePathAndPresetRelativeToFile(@TempDir Path dir) throws Exception {
        Path base = dir.resolve("base.yaml");
        Files.writeString(base, "version: 1\npreset: a100-80gb\nname: base\n");
        Path over = dir.resolve("over.yaml");
        Files.writeString(over, "version: 1\npreset: base.yaml\ngpu:\n  clock: 1.2GHz\n");
        GpuSpec s = (GpuSpec) HardwareSpecs.load(over.toString());
        assertEquals("base", s.name());
        assertEquals(1.2e9, s.clockHertz(), 1);
    }

    @Test
    void badSpecsGiveOneClearLine() {
        assertEquals("bad.yaml: gpu.l2.sise: unknown key (allowed: size, line, sector, ways, latency, bandwidth)",
                messageOf("version: 1\npreset: a100-80gb\ngpu:\n  l2:\n    sise: 1MiB\n"));
        assertEquals("bad.yaml: gpu.l1.size: must not be negative, got -4KiB",
                messageOf("version: 1\npreset: a100-80gb\ngpu:\n  l1:\n    size: -4KiB\n"));
        assertEquals("bad.yaml: gpu.l1.size: 100.00 KiB / (64 ways x 128 B lines) is not a whole number of sets",
                messageOf("version: 1\npreset: a100-80gb\ngpu:\n  l1:\n    size: 100KiB\n"));
        assertEquals("bad.yaml: no peak for fp64 on tensor (the spec has: tf32, fp16, bf16, int8)",
                assertThrows(SpecException.class, () -> HardwareSpecs.load("a100-80gb").peaks()
                        .flopsPerSecond(ComputeUnit.TENSOR, DType.F64)).getMessage().replace("a100.yaml", "bad.yaml"));
        assertTrue(messageOf("version: 1\nname: x\n").contains("exactly one of gpu: or cpu:"));
        assertTrue(messageOf("version: 1\npreset: a100-80gbb\n").contains("presets: a100-80gb"));
        assertTrue(messageOf("version: 1\npreset: a100-80gb\ngpu:\n  peaks:\n    tensor:\n      fp99: 1TFLOPS\n")
                .startsWith("bad.yaml: gpu.peaks.tensor.fp99: unknown dtype"));
        assertTrue(messageOf("version: 1\npreset: epyc-zen5-2c\ncpu:\n  simdWidth: 100bits\n").contains("cpu.simdWidth"));
        assertEquals("bad.yaml: overheads.denseEfficiency: must be a fraction in (0, 1]",
                messageOf("version: 1\npreset: epyc-zen5-2c\noverheads:\n  denseEfficiency: 1.5\n"));
        assertTrue(messageOf("version: 1\npreset: epyc-zen5-2c\ncpu:\n  missesInFlight: 0\n").contains("cpu.missesInFlight"));
    }

    private static String messageOf(String yaml) {
        return assertThrows(SpecException.class, () -> HardwareSpecs.parse("bad.yaml", yaml)).getMessage();
    }

    @Test
    void unknownFileOrPresetIsAnError() {
        assertTrue(assertThrows(SpecException.class, () -> HardwareSpecs.load("nope.yaml")).getMessage().contains("no such file"));
        assertTrue(assertThrows(SpecException.class, () -> HardwareSpecs.load("a200")).getMessage().contains("presets:"));
    }
}
