package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.memsim.CacheConfig;
import dev.sparseprof.trace.ArrayRole;
import org.junit.jupiter.api.Test;

/**
 * The two-partition L2: a DRAM fill goes to the line's home partition only, a far hit is copied
 * into the requester's partition (not DRAM), writes go home, and a footprint both halves read fits
 * when it fits one partition, not the whole L2.
 */
class PartitionedL2Test {
    private static final int LINE = 128;
    private static final long HALF = 1 << 20; // 1 MiB a partition, 16 ways, 32-byte sectors

    private static PartitionedL2 l2() {
        return new PartitionedL2(CacheConfig.of("L2", HALF, LINE, 16).withSectors(LINE / 32));
    }

    @Test
    void aFarHitIsCopiedNearAndADramFillStaysHome() {
        PartitionedL2 l2 = l2();
        long a = 0;
        while (l2.home(a) != 1) a += LINE;
        l2.read(0, a, LINE, ArrayRole.B_GATHER); // miss everywhere: DRAM, into partition 1 only
        assertEquals(LINE, l2.dramReadBytes());
        assertEquals(0, l2.fabricBytes());
        l2.read(0, a, LINE, ArrayRole.B_GATHER); // near miss, far hit: copied across, no DRAM
        assertEquals(LINE, l2.dramReadBytes());
        assertEquals(LINE, l2.fabricBytes());
        l2.read(0, a, LINE, ArrayRole.B_GATHER); // near hit
        l2.read(1, a, LINE, ArrayRole.B_GATHER); // the home side hits
        assertEquals(LINE, l2.dramReadBytes());
        assertEquals(LINE, l2.fabricBytes());
    }

    @Test
    void writesGoHomeAndReachDramAtTheFlush() {
        PartitionedL2 l2 = l2();
        l2.write(0, 64 * LINE, ArrayRole.C_SCATTER);
        assertEquals(0, l2.dramWriteBytes());
        l2.flush();
        assertEquals(64 * LINE, l2.dramWriteBytes());
        assertEquals(64 * LINE, l2.dramWriteBytes(ArrayRole.C_SCATTER));
        assertEquals(0, l2.fabricBytes());
    }

    /** A footprint of {@code share} of the whole L2 read three times over by SMs of both sides: DRAM bytes over the footprint. */
    private static double rereadByBothSides(double share) {
        PartitionedL2 l2 = l2();
        long bytes = (long) (share * 2 * HALF) / LINE * LINE;
        for (int pass = 0; pass < 3; pass++) {
            for (long a = 0; a < bytes; a += LINE) l2.read((int) ((a / LINE) & 1), a, LINE, ArrayRole.DENSE_A);
            for (long a = 0; a < bytes; a += LINE) l2.read((int) ((a / LINE + 1) & 1), a, LINE, ArrayRole.DENSE_A);
        }
        return l2.dramReadBytes() / (double) bytes;
    }

    @Test
    void whatBothHalvesReadIsHeldTwice() {
        // Within one partition's capacity: read once, however often both sides come back.
        assertEquals(1.0, rereadByBothSides(0.4), 0.02);
        // Within the whole L2 but past one partition: the copies crowd out the home lines.
        assertTrue(rereadByBothSides(0.75) > 1.5, "0.75 of the L2 read by both sides");
    }
}
