package dev.sparseprof.perfmodel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-checked walks of the capacity model over the 2-core Zen 5 spec (48 KiB L1d, 1 MiB L2 per core, 32 MiB L3). */
class AnalyticalTrafficTest {
    private static final HardwareSpec ZEN5 = HardwareSpecs.load("epyc-zen5-2c");

    @Test
    void streamedBytesReachDramOnce() {
        Traffic t = AnalyticalTraffic.estimate(List.of(DataStream.streamed("A", 1e6, false)), ZEN5, Features.ALL);
        assertEquals(List.of("L1d", "L2", "L3", "DRAM"), t.levels());
        for (int i = 0; i < 4; i++) assertEquals(1e6, t.bytesAt(i), 1e-6);
        assertEquals(1.0, t.missRate(0), 1e-12);
    }

    @Test
    void aGatherThatFitsMissesOnlyCompulsorily() {
        // 16 KiB gathered 100 times over by both cores: fits every level; each private level misses it once per core.
        double f = 16 * 1024;
        Traffic t = AnalyticalTraffic.estimate(List.of(DataStream.gathered("B", 100 * f, f, true)), ZEN5, Features.ALL);
        assertEquals(100 * f, t.bytesAt(0), 1e-6);
        assertEquals(2 * f, t.bytesAt(1), 1e-6);
        assertEquals(2 * f, t.bytesAt(2), 1e-6);
        assertEquals(f, t.bytesAt(3), 1e-6); // the shared L3 holds one copy
    }

    @Test
    void aGatherTwiceTheL1HitsHalfTheTime() {
        double f = 96 * 1024; // 2 x 48 KiB
        Traffic t = AnalyticalTraffic.estimate(List.of(DataStream.gathered("B", 1000 * f, f, true)), ZEN5, Features.ALL);
        assertEquals(0.5, t.missRate(0), 1e-12);
        Traffic perfect = AnalyticalTraffic.estimate(List.of(DataStream.gathered("B", 1000 * f, f, true)), ZEN5,
                new Features(true, false, true, true));
        assertEquals(2 * f / (1000 * f), perfect.missRate(0), 1e-12);
    }

    @Test
    void hotArraysGetTheCacheFirstAndIndexBytesCanBeLeftOut() {
        double f = 40 * 1024;
        List<DataStream> streams = List.of(DataStream.gathered("B", 100 * f, f, true), DataStream.streamed("colidx", 10 * f, true));
        Traffic t = AnalyticalTraffic.estimate(streams, ZEN5, Features.ALL);
        assertEquals(110 * f, t.bytesAt(0), 1e-6);
        assertEquals(2 * f + 10 * f, t.bytesAt(1), 1e-6); // B fits beside nothing else hot; the stream passes
        Traffic noIndex = AnalyticalTraffic.estimate(streams, ZEN5, new Features(false, true, true, true));
        assertEquals(100 * f, noIndex.bytesAt(0), 1e-6);
    }
}
