package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.ArrayRole;
import org.junit.jupiter.api.Test;

class DramTest {
    // 1 channel, 2 banks, 1 KiB rows, 64-byte bursts; hit 10 ns, miss 20 ns, conflict 30 ns; 64 GB/s; MLP 2
    static final DramConfig SMALL = new DramConfig(1, 2, 1024, 64, 64e9, 10e-9, 20e-9, 30e-9, 2);

    @Test
    void rowBufferOutcomesFollowTheDocumentedMapping() {
        Memory m = new Memory(SMALL);
        m.fetch(0, 64, ArrayRole.VALUES);    // bank 0 row 0: closed -> miss
        m.fetch(64, 64, ArrayRole.VALUES);   // same row -> hit
        m.fetch(1024, 64, ArrayRole.VALUES); // burst 16 -> bank 1 row 0: miss
        m.write(2048, 64, ArrayRole.VALUES); // burst 32 -> bank 0 row 1: conflict
        DramStats d = m.snapshot().dram();
        assertEquals(4, d.requests());
        assertEquals(1, d.rowHits());
        assertEquals(2, d.rowMisses());
        assertEquals(1, d.rowConflicts());
        assertEquals(256, d.bytesMoved());
        assertEquals(256 / 64e9, d.bandwidthBoundSeconds(), 1e-18);
        assertEquals(80e-9 / 2, d.latencyBoundSeconds(), 1e-15);
        assertEquals(40e-9, d.timeSeconds(), 1e-15);
    }

    @Test
    void channelsInterleaveBursts() {
        DramConfig two = new DramConfig(2, 1, 1024, 64, 64e9, 10e-9, 20e-9, 30e-9, 1);
        Memory m = new Memory(two);
        m.fetch(0, 128, ArrayRole.VALUES);  // bursts 0 and 1 on channels 0 and 1: two misses, one request
        m.fetch(128, 64, ArrayRole.VALUES); // burst 2: channel 0, same row -> hit
        DramStats d = m.snapshot().dram();
        assertEquals(2, d.requests());
        assertEquals(3, d.bursts());
        assertEquals(2, d.rowMisses());
        assertEquals(1, d.rowHits());
        assertEquals(30e-9, d.latencyBoundSeconds(), 1e-15); // worst burst of each request: 20 + 10
    }

    @Test
    void bandwidthBoundWhenLatencyOverlaps() {
        DramConfig wide = new DramConfig(1, 1, 1 << 20, 64, 1e9, 1e-9, 1e-9, 1e-9, 64);
        Memory m = new Memory(wide);
        for (int i = 0; i < 1000; i++) m.fetch(i * 64L, 64, ArrayRole.VALUES);
        DramStats d = m.snapshot().dram();
        assertEquals(64_000 / 1e9, d.timeSeconds(), 1e-12);
    }
}
