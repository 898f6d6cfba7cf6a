package dev.sparseprof.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CpuNameTest {
    private static List<String> cpuinfo(String family, String model, String name) {
        return List.of("processor\t: 0", "vendor_id\t: AuthenticAMD", "cpu family\t: " + family, "model\t\t: " + model,
                "model name\t: " + name, "stepping\t: 1", "", "processor\t: 1", "cpu family\t: 99", "model\t\t: 99", "model name\t: other");
    }

    @Test
    void aGenericNameIsTellingWithTheFamilyAndModelOfTheFirstProcessor() {
        String zen4 = CpuName.fromCpuinfo(cpuinfo("25", "17", "AMD EPYC"), "amd64");
        String zen5 = CpuName.fromCpuinfo(cpuinfo("26", "2", "AMD EPYC"), "amd64");
        assertEquals("AMD EPYC (family 25 model 17)", zen4);
        assertNotEquals(zen4, zen5);
    }

    @Test
    void withoutTheNumbersOrTheNameItSaysWhatItHas() {
        assertEquals("Neoverse", CpuName.fromCpuinfo(List.of("model name\t: Neoverse", "cpu family\t: ?"), "aarch64"));
        assertEquals("aarch64", CpuName.fromCpuinfo(List.of("processor\t: 0", "BogoMIPS\t: 50.00"), "aarch64"));
    }
}
