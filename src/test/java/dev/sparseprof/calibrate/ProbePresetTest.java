package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.CpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.util.CpuName;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProbePresetTest {
    private static String preset(String cpuinfo) {
        return ProbePreset.forCpu(CpuName.fromCpuinfo(List.of(cpuinfo.split("\n")), "amd64")).preset();
    }

    /** The three kinds of machine seen under this project, each as its /proc/cpuinfo names it, get their own kind's preset. */
    @Test
    void eachKindOfMachineSeenGetsItsOwnPreset() {
        assertEquals("epyc-zen5-2c", preset("vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC"));
        assertEquals("epyc-zen4-2c", preset("vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC"));
        assertEquals("xeon-spr", preset("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nmodel name\t: Intel(R) Xeon(R) Platinum 8480+"));
        assertEquals("xeon-spr", preset("model name\t: Intel(R) Xeon(R) Processor"));
    }

    /** A Zen 3 (family 25, model 1) takes the nearest bundled kind by its FMA ports and says so; a CPU no rule places takes the fallback and says so. */
    @Test
    void aCpuWithoutItsOwnPresetIsToldWhichItGot() {
        ProbePreset.Choice zen3 = ProbePreset.forCpu("AMD EPYC (family 25 model 1)");
        assertEquals("epyc-zen5-2c", zen3.preset(), "a Zen 3's two 256-bit FMA pipes are Zen 5's two ports, not Zen 4's one 512-bit one");
        assertTrue(zen3.why().contains("Zen 3"), zen3.why());
        ProbePreset.Choice arm = ProbePreset.forCpu("aarch64");
        assertEquals(ProbePreset.FALLBACK, arm.preset());
        assertTrue(arm.why().contains("no bundled preset for aarch64"), arm.why());
        assertEquals(ProbePreset.FALLBACK, ProbePreset.forCpu("AMD EPYC").preset(), "a name without its family places nothing");
        assertEquals(ProbePreset.FALLBACK, ProbePreset.forCpu(null).preset());
    }

    /** Every preset the rules name is a bundled CPU spec. */
    @Test
    void everyChosenPresetIsABundledCpuSpec() {
        for (String name : List.of("AMD EPYC (family 26 model 2)", "AMD EPYC (family 25 model 17)", "Intel Xeon", "riscv64")) {
            assertTrue(HardwareSpecs.load(ProbePreset.forCpu(name).preset()) instanceof CpuSpec, name);
        }
    }
}
