package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.util.SparseprofException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CacheSpecsTest {
    @Test
    void levelSyntax() {
        CacheConfig c = CacheSpecs.parseLevel("L1d:48KiB:12:64:plru:wt-nwa");
        assertEquals(48 << 10, c.sizeBytes());
        assertEquals(64, c.sets());
        assertEquals("plru", c.policy());
        assertEquals(WritePolicy.WT_NWA, c.writePolicy());
        CacheConfig f = CacheSpecs.parseLevel("LLC:1m:full:128");
        assertEquals(1, f.sets());
        assertEquals(8192, f.ways());
        assertEquals("lru", f.policy());
        assertEquals(WritePolicy.WB_WA, f.writePolicy());
        var e = assertThrows(SparseprofException.class, () -> CacheSpecs.parseLevel("L1:32k:eight:64"));
        assertEquals("L1: associativity 'eight' is neither a number nor 'full'", e.getMessage());
    }

    @Test
    void hardwareSpecMapsLevelsSharingAndDram() {
        HierarchyConfig one = CacheSpecs.fromHardware(HardwareSpecs.load("epyc-zen5-2c"), 1);
        assertEquals(List.of("L1d", "L2", "L3"), one.levels().stream().map(CacheConfig::name).toList());
        assertEquals(64, one.levels().getFirst().sets());
        HierarchyConfig two = CacheSpecs.fromHardware(HardwareSpecs.load("epyc-zen5-2c"), 2);
        assertEquals(2, two.firstSharedLevel()); // L1d and L2 private, L3 shared
        assertEquals(175e-9, two.dram().rowMissSeconds(), 1e-12);
        HierarchyConfig gpu = CacheSpecs.fromHardware(HardwareSpecs.load("a100-80gb"), 1);
        assertEquals(4, gpu.levels().getFirst().sectorsPerLine()); // 128-byte lines of 32-byte sectors
    }

    @Test
    void overridesNameTheOption() {
        List<CacheConfig> ls = List.of(CacheConfig.of("L1", 1024, 64, 2), CacheConfig.of("L3", 4096, 64, 4));
        assertEquals(Inclusion.EXCLUSIVE, CacheSpecs.override(ls, "L3=exclusive", "--inclusion").get(1).inclusion());
        var e = assertThrows(SparseprofException.class, () -> CacheSpecs.override(ls, "L2=inclusive", "--inclusion"));
        assertEquals("--inclusion 'L2=inclusive': no level named 'L2'", e.getMessage());
        e = assertThrows(SparseprofException.class, () -> CacheSpecs.override(ls, "L1=3", "--sectors"));
        assertEquals("--sectors L1=3: L1: sectors per line must be a power of two in [1, 64], got 3", e.getMessage());
    }

    @Test
    void dramSyntax() {
        DramConfig d = CacheSpecs.parseDram("2:32:8KiB:64:76.8GB/s:90ns");
        assertEquals(2, d.channels());
        assertEquals(8192, d.rowBytes());
        assertEquals(76.8e9, d.peakBandwidthBytesPerSecond(), 1);
        assertEquals(90e-9, d.rowMissSeconds(), 1e-15);
        assertEquals(DramConfig.ddr5Dual(), CacheSpecs.parseDram("ddr5"));
    }
}
