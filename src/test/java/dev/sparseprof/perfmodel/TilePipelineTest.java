package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpecs;
import org.junit.jupiter.api.Test;

/** The tensor-core tile pipeline, hand-checked on the A100 spec. */
class TilePipelineTest {
    private static final GpuSpec A100 = (GpuSpec) HardwareSpecs.load("a100-80gb");

    @Test
    void aDenseFp16TileIsMathBoundPerStepPlusSyncFillAndDrain() {
        // 128 x 128 x 10240 fp16: 320 steps of K 32; math 2*128*128*32 / (312T / 108) per step;
        // L2 copy (8 + 8 KiB) / (7.2 TB/s / 108) and shared memory 3 x 16 KiB / (19.5 TB/s / 108) are smaller.
        double math = 2.0 * 128 * 128 * 32 / (312e12 / 108);
        double step = math + 32 / 1.41e9;
        double fill = 200 / 1.41e9 + 190 / 1.41e9;
        double drain = 128.0 * 128 * 2 / (7.2e12 / 108) + 200 / 1.41e9;
        double t = TilePipeline.tileSeconds(A100, 128, 128, 10240, 2, 2, 312e12, false);
        assertEquals(320 * step + fill + drain, t, 1e-12);
    }

    @Test
    void theSparsePathMovesTheSameBPerStepForTwiceTheMathSoItGainsLessThanTwo() {
        // 2:4 fp16: A is half the values plus 4 bits per 4 elements = 1.125 B per logical element.
        double dense = TilePipeline.tileSeconds(A100, 128, 128, 10240, 2, 2, 312e12, false);
        double sparse = TilePipeline.tileSeconds(A100, 128, 128, 10240, 1.125, 2, 624e12, true);
        double gain = dense / sparse;
        assertTrue(gain > 1.3 && gain < 1.95, "gain " + gain);
        // Shared memory sets the sparse step: (A 4.5 KiB + B 16 KiB) x 3 over the SM's share of the SRAM.
        int step = TilePipeline.kStep(2, true);
        assertEquals(64, step);
        double shared = (128 * 64 * 1.125 + 64 * 128 * 2.0) * 3 / (19.5e12 / 108);
        double math = 2.0 * 128 * 128 * 64 / (624e12 / 108);
        assertTrue(shared > math, "shared memory bound: " + shared + " vs " + math);
        double fill = 390 / 1.41e9;
        double drain = 128.0 * 128 * 2 / (7.2e12 / 108) + 200 / 1.41e9;
        assertEquals(160 * (shared + 32 / 1.41e9) + fill + drain, sparse, 1e-12);
    }

    @Test
    void withoutSyncAndBandwidthLimitsTheSparsePathReachesItsPeak() {
        GpuSpec ideal = (GpuSpec) HardwareSpecs.parse("ideal.yaml", "version: 1\npreset: a100-80gb\ngpu:\n  l1: {bandwidth: 1000PB/s}\n"
                + "  l2: {bandwidth: 1000PB/s, latency: 0cycles}\n  dram: {latency: 0cycles}\noverheads:\n  tileStep: 0cycles\n");
        double dense = TilePipeline.tileSeconds(ideal, 128, 128, 10240, 2, 2, 312e12, false);
        double sparse = TilePipeline.tileSeconds(ideal, 128, 128, 10240, 1.125, 2, 624e12, true);
        assertEquals(2.0, dense / sparse, 1e-6);
    }

    @Test
    void occupancyIsTheTightestOfWarpsRegistersSharedMemoryAndTheBlockLimit() {
        // 128 x 128 fp16 dense: 3 stages x (8 + 8 KiB) = 48 KiB of shared memory (164 KiB: 3 blocks);
        // 128 accumulators + 64 registers per thread x 128 threads = 24 K registers (64 K: 2 blocks).
        TilePipeline.Tile big = TilePipeline.tile(A100, 128, 128, 10240, 2, 2, 312e12, false);
        assertEquals(3 * 16384.0, big.sharedBytes(), 0);
        assertEquals(192, big.registersPerThread());
        assertEquals(2, big.blocksPerSm(A100));
        GpuSpec tight = (GpuSpec) HardwareSpecs.parse("t.yaml", "version: 1\npreset: a100-80gb\ngpu:\n  sharedMemory: 40KiB\n");
        assertEquals(1, big.blocksPerSm(tight), "shared memory limits to one (never below one)");
        GpuSpec fewBlocks = (GpuSpec) HardwareSpecs.parse("t.yaml", "version: 1\npreset: a100-80gb\ngpu:\n  maxBlocksPerSm: 1\n");
        TilePipeline.Tile small = TilePipeline.tile(A100, 32, 32, 384, 2, 2, 312e12, false);
        assertEquals(7, small.blocksPerSm(A100)); // 72 registers x 128 threads: 7 blocks in 64 K
        assertEquals(1, small.blocksPerSm(fewBlocks));
        // Two resident blocks hide every fill and drain but the first and last; one pays each.
        assertEquals(3 * small.mainSeconds() + small.fillDrainSeconds(), small.seconds(3, 2), 1e-15);
        assertEquals(3 * (small.mainSeconds() + small.fillDrainSeconds()), small.seconds(3, 1), 1e-15);
    }
}
