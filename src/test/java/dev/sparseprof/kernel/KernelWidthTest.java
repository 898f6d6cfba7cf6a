package dev.sparseprof.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector width the kernels run at and the blocking chosen from it: a pure function of
 * (width, L1d, L2), checked on the machines this project meets. Also run by the build's 256-bit
 * pass, where the cap must have taken effect.
 */
class KernelWidthTest {
    @Test
    void theCapTakesEffectWhenSet() {
        String cap = System.getProperty(KernelVectors.CAP_PROPERTY);
        int preferred = FloatVector.SPECIES_PREFERRED.vectorBitSize();
        int expected = cap == null ? preferred : Math.min(preferred, Integer.parseInt(cap));
        assertEquals(expected, KernelVectors.FLOATS.vectorBitSize(), KernelVectors.describe());
        assertEquals(KernelVectors.FLOATS.vectorBitSize(), KernelVectors.INTS.vectorBitSize());
        CoreCaches caches = CoreCaches.ofThisMachine();
        assertEquals(DenseTiling.choose(expected, caches.l1dBytes(), caches.l2Bytes()), DenseGemm.TILING, "the dense GEMM's tiling");
    }

    @Test
    void widthIsThePreferredOneCappedByAValidProperty() {
        assertEquals(512, KernelVectors.bits(512, null));
        assertEquals(256, KernelVectors.bits(512, "256"));
        assertEquals(128, KernelVectors.bits(512, " 128 "));
        assertEquals(256, KernelVectors.bits(256, "512"), "a cap never widens");
        assertEquals(512, KernelVectors.bits(512, "300"), "an invalid cap is ignored");
        assertEquals(512, KernelVectors.bits(512, "wide"));
    }

    @Test
    void tilesFitTheRegisterFileAndBlocksTheCaches() {
        // Sapphire-Rapids-class core, AVX-512: 48 KiB L1d, 2 MiB L2
        assertEquals(new DenseTiling(4, 4, 16, 256, 512), DenseTiling.choose(512, 48L << 10, 2L << 20));
        // Zen 3 core, AVX2: 32 KiB L1d, 512 KiB L2
        assertEquals(new DenseTiling(6, 2, 8, 128, 256), DenseTiling.choose(256, 32L << 10, 512L << 10));
        // the same AVX-512 core capped at 256 bits: the 16-register tile, blocks from its caches
        assertEquals(new DenseTiling(6, 2, 8, 256, 512), DenseTiling.choose(256, 48L << 10, 2L << 20));
        // a tiny core: blocks clamp at their least, nc at one panel
        assertEquals(new DenseTiling(6, 2, 4, 64, 8), DenseTiling.choose(128, 4L << 10, 8L << 10));
        for (int bits : new int[] {128, 256, 512}) {
            DenseTiling t = DenseTiling.choose(bits, 32L << 10, 1L << 20);
            int accumulators = t.rows() * t.vectors();
            assertTrue(accumulators + t.vectors() + 1 <= KernelVectors.registers(bits), "tile fits the registers at " + bits);
            assertTrue(accumulators >= 8, "enough independent FMA chains at " + bits);
            assertTrue((long) t.rows() * t.kc() * Float.BYTES <= (32L << 10) / 8, "A sliver in an eighth of L1d");
            assertTrue((long) t.kc() * t.nc() * Float.BYTES <= (1L << 20) / 4, "B block in a quarter of L2");
        }
    }

    @Test
    void cacheSizesComeFromSysfsOrFallBack(@TempDir Path dir) throws IOException {
        level(dir.resolve("index0"), 1, "Data", "48K");
        level(dir.resolve("index1"), 1, "Instruction", "32K");
        level(dir.resolve("index2"), 2, "Unified", "2048K");
        level(dir.resolve("index3"), 3, "Unified", "480M");
        assertEquals(new CoreCaches(48L << 10, 2L << 20, true), CoreCaches.read(dir));
        CoreCaches hidden = CoreCaches.read(dir.resolve("missing"));
        assertFalse(hidden.fromSysfs());
        assertEquals(CoreCaches.FALLBACK.l1dBytes(), hidden.l1dBytes());
        Files.writeString(dir.resolve("index2").resolve("size"), "lots");
        CoreCaches garbled = CoreCaches.read(dir);
        assertEquals(CoreCaches.FALLBACK.l2Bytes(), garbled.l2Bytes(), "an unreadable size falls back");
        assertFalse(garbled.fromSysfs());
    }

    private static void level(Path dir, int level, String type, String size) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("level"), level + "\n");
        Files.writeString(dir.resolve("type"), type + "\n");
        Files.writeString(dir.resolve("size"), size + "\n");
    }
}
