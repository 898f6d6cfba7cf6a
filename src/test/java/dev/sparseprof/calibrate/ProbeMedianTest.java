package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.perfmodel.cpu.ProbedCpuFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code calibrate --median}: every measured number the probes' median, the draws far from it named, mismatched probes refused by name. */
class ProbeMedianTest {
    @TempDir Path dir;

    /** A probe overlay of the test CPU with its 4-vector block and overlap as given. */
    private Path probe(String name, int simdBits, String block4, String overlap) throws IOException {
        String yaml = ProbedCpuFixture.yaml(simdBits, overlap).replace("version: 1\n", "version: 1\npreset: epyc-zen4-2c\n")
                .replace("block4: 4.5cycles", "block4: " + block4);
        Path p = dir.resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    @Test
    void eachMeasuredNumberIsTheProbesMedianAndAFarDrawIsNamed() throws IOException {
        Path a = probe("p1.yaml", 512, "4.5cycles", "0.5");
        Path b = probe("p2.yaml", 512, "6.5cycles", "0.7");
        Path c = probe("p3.yaml", 512, "4.6cycles", "0.6");
        ProbeMedian.Result r = ProbeMedian.of(List.of(a, b, c), dir);
        CpuSpec spec = (CpuSpec) r.overlay().check(dir);
        assertEquals(4.6, spec.inCore().block4Cycles(), 1e-9);
        assertEquals(0.6, spec.inCore().overlap(), 1e-9);
        assertEquals(8.5, spec.inCore().block8Cycles(), 1e-9, "the same in every probe: kept");
        assertEquals(2, spec.cores());
        assertEquals(List.of("cpu.inCore.block4 6.5cycles in " + b + ", median 4.6cycles", "cpu.inCore.overlap 0.5 in " + a + ", median 0.6",
                "cpu.inCore.overlap 0.7 in " + b + ", median 0.6"), r.apart().stream().sorted().toList());
        assertTrue(r.overlay().toYaml().startsWith("# Median of 3 probes"), r.overlay().toYaml());
        // two probes: the mean of the two
        CpuSpec two = (CpuSpec) ProbeMedian.of(List.of(a, c), dir).overlay().check(dir);
        assertEquals(4.55, two.inCore().block4Cycles(), 1e-9);
        // what goes out loads as a spec from its own folder
        Path out = dir.resolve("median.yaml");
        Files.writeString(out, r.overlay().toYaml());
        assertEquals(4.6, ((CpuSpec) HardwareSpecs.load(out.toString())).inCore().block4Cycles(), 1e-9);
    }

    /**
     * A probe leaves a one-column body's rates out where their slope solved to 0: each such rate is
     * the median of the probes that have it, and a probe that lacks any other key is still refused.
     */
    @Test
    void aOneColumnRateALeftOutProbeLacksIsTheMedianOfTheOthers() throws IOException {
        String gemv = "    nmSlot: 3cycles\n    gemvFma: %s\n    gemvRow: 4cycles\n";
        Path a = probe("g1.yaml", 512, "4.5cycles", "0.5");
        Files.writeString(a, Files.readString(a).replace("    nmSlot: 3cycles\n", gemv.formatted("0.5cycles")));
        Path b = probe("g2.yaml", 512, "4.5cycles", "0.5");
        Path c = probe("g3.yaml", 512, "4.5cycles", "0.5");
        Files.writeString(c, Files.readString(c).replace("    nmSlot: 3cycles\n", gemv.formatted("0.7cycles")));
        CpuSpec spec = (CpuSpec) ProbeMedian.of(List.of(a, b, c), dir).overlay().check(dir);
        assertEquals(0.6, spec.inCore().oneColumn().gemvFmaCycles(), 1e-9, "the two probes that have it");
        assertEquals(4, spec.inCore().oneColumn().gemvRowCycles(), 1e-9);
        Path lacking = probe("g4.yaml", 512, "4.5cycles", "0.5");
        Files.writeString(lacking, Files.readString(lacking).replace("    overlap: 0.5\n", ""));
        Exception e = assertThrows(RuntimeException.class, () -> ProbeMedian.of(List.of(a, lacking), dir));
        assertTrue(e.getMessage().startsWith(lacking + ": 'cpu.inCore' has keys"), e.getMessage());
    }

    @Test
    void probesOfAnotherWidthOrNoProbeAtAllAreRefusedByName() throws IOException {
        Path a = probe("p1.yaml", 512, "4.5cycles", "0.5");
        Path narrow = probe("n.yaml", 256, "4.5cycles", "0.5");
        Exception e = assertThrows(RuntimeException.class, () -> ProbeMedian.of(List.of(a, narrow), dir));
        assertTrue(e.getMessage().startsWith(narrow + ": 'cpu.simdWidth' is '256bits', in " + a + " '512bits'"), e.getMessage());
        Path plain = dir.resolve("plain.yaml");
        Files.writeString(plain, "version: 1\npreset: epyc-zen4-2c\nname: x\n");
        e = assertThrows(RuntimeException.class, () -> ProbeMedian.of(List.of(a, plain), dir));
        assertTrue(e.getMessage().contains(plain + ": not a probed spec"), e.getMessage());
        e = assertThrows(RuntimeException.class, () -> ProbeMedian.of(List.of(a), dir));
        assertTrue(e.getMessage().contains("two or more"), e.getMessage());
        Path other = probe("u.yaml", 512, "4.5GHz", "0.5");
        e = assertThrows(RuntimeException.class, () -> ProbeMedian.of(List.of(a, other), dir));
        assertTrue(e.getMessage().contains("'cpu.inCore.block4' is in GHz"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("median.yaml")));
    }

    @Test
    void theCommandWritesTheMedianAndNamesTheFarDrawsOrRefusesOtherOptionsInOneLine() throws IOException {
        Path a = probe("p1.yaml", 512, "4.5cycles", "0.5");
        Path b = probe("p2.yaml", 512, "6.5cycles", "0.5");
        Path c = probe("p3.yaml", 512, "4.6cycles", "0.5");
        Path out = dir.resolve("out").resolve("median.yaml");
        Files.createDirectories(out.getParent());
        var ok = CalibrateValidateCommandsTest.run("calibrate", "--median", a + "," + b + "," + c, "--out", out.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("calibrate --median: cpu.inCore.block4 6.5cycles in " + b + ", median 4.6cycles"), ok.out());
        assertEquals(4.6, ((CpuSpec) HardwareSpecs.load(out.toString())).inCore().block4Cycles(), 1e-9);
        Path refused = dir.resolve("refused.yaml");
        var bad = CalibrateValidateCommandsTest.run("calibrate", "--median", a + "," + b, "--probe", "--out", refused.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("calibrate --median takes probed specs and --out only"), bad.err());
        assertFalse(Files.exists(refused));
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "a: [\n");
        var notYaml = CalibrateValidateCommandsTest.run("calibrate", "--median", broken + "," + a, "--out", refused.toString());
        assertEquals(2, notYaml.code(), notYaml.err());
        assertTrue(notYaml.err().contains("broken.yaml: not valid YAML"), notYaml.err());
        assertFalse(Files.exists(refused));
    }
}
