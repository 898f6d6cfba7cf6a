package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.kernel.CoreCaches;
import dev.sparseprof.util.SysfsCacheEntries;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineProbeTest {
    private static final CacheSizes SMALL = CacheSizes.ofSizes(32L << 10, 256L << 10, 4L << 20);

    @Test
    void aQuickProbeMeasuresEveryPoint() {
        ProbeSettings quick = new ProbeSettings(1, 1e-4, 1L << 20, 2);
        ProbeResult r = new MachineProbe(quick, SMALL).run();
        assertEquals(MemoryLevel.values().length * StreamKernel.values().length * 2, r.bandwidth().size());
        assertEquals(4, r.flops().size());
        assertTrue(r.bandwidth(MemoryLevel.L1, StreamKernel.TRIAD, 2).isPresent());
        assertTrue(r.flops(64, 1).orElseThrow().medianFlopsPerSecond() > 1e8, "at least 0.1 GFLOP/s");
        assertTrue(r.vectorBits() >= 64);
    }

    @Test
    void workingSetsAreSizedIntoTheirLevel() {
        MachineProbe p = new MachineProbe(new ProbeSettings(1, 1e-4, 64L << 20, 2), SMALL);
        assertEquals(24L << 10, p.perThreadBytes(MemoryLevel.L1, 1), "three quarters of L1d on one thread");
        assertEquals(16L << 10, p.perThreadBytes(MemoryLevel.L1, 2), "half on a team (SMT siblings may share it)");
        assertEquals(128L << 10, p.perThreadBytes(MemoryLevel.L2, 2), "private: each thread its own");
        assertEquals(2L << 20, p.perThreadBytes(MemoryLevel.L3, 1), "half the L3 (capped at 32 MiB), at least 4 x L2");
        assertEquals(32L << 20, p.perThreadBytes(MemoryLevel.DRAM, 2), "shared: split among threads");
    }

    @Test
    void kernelsComputeWhatTheySay() {
        MemorySegment a = StreamLoops.alignedDoubles(147, 0);
        for (int i = 0; i < 147; i++) a.setAtIndex(ValueLayout.JAVA_DOUBLE, i, i + 1);
        assertEquals(0, a.address() % StreamLoops.ALIGNMENT_BYTES, "the read stream is line-aligned");
        assertEquals(147 * 148 / 2, StreamLoops.read(a, 1), "vector body (8 accumulators) and scalar tail");
        assertEquals(3 * 147 * 148 / 2, StreamLoops.read(a, 3), "every pass, one reduction");
        double[] b = new double[19];
        double[] c = new double[19];
        for (int i = 0; i < 19; i++) {
            b[i] = i;
            c[i] = 2 * i;
        }
        double[] out = new double[19];
        StreamLoops.triad(out, b, c, 0.5);
        for (int i = 0; i < 19; i++) assertEquals(2.0 * i, out[i]);
        assertEquals(1.0 * 0.999999 + 1e-6, FmaLoops.fp64(1) / (12 * jdk.incubator.vector.DoubleVector.SPECIES_PREFERRED.length()), 1e-12);
    }

    @Test
    void sysfsSizes(@TempDir Path dir) throws IOException {
        write(dir.resolve("index0"), "1", "Data", "48K");
        write(dir.resolve("index1"), "1", "Instruction", "32K");
        write(dir.resolve("index2"), "2", "Unified", "2048K");
        CacheSizes c = CacheSizes.read(dir);
        assertEquals(48L << 10, c.l1dBytes());
        assertEquals(2L << 20, c.l2Bytes());
        assertEquals(CacheSizes.FALLBACK.l3Bytes(), c.l3Bytes(), "no L3 in sysfs: fallback");
        assertEquals(List.of(12, 16, 16), c.ways());
        assertEquals(64, c.lineBytes());
        assertEquals(false, c.fromSysfs());
        assertEquals(480L << 20, SysfsCacheEntries.sizeBytes("491520K"));
    }

    private static void write(Path d, String level, String type, String size) throws IOException {
        Files.createDirectories(d);
        Files.writeString(d.resolve("level"), level + "\n");
        Files.writeString(d.resolve("type"), type + "\n");
        Files.writeString(d.resolve("size"), size + "\n");
        Files.writeString(d.resolve("ways_of_associativity"), (level.equals("1") ? "12" : "16") + "\n");
        Files.writeString(d.resolve("coherency_line_size"), "64\n");
    }
}
