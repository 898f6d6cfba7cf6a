package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.BinaryTraceReader;
import dev.sparseprof.trace.BinaryTraceWriter;
import dev.sparseprof.trace.TraceReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class MultiCoreTest {
    static TraceReader trace(long... lines) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BinaryTraceWriter w = new BinaryTraceWriter(bytes)) {
            for (long l : lines) w.access(AccessKind.READ, l * 64, 4, ArrayRole.B_GATHER);
        }
        return new BinaryTraceReader(new ByteArrayInputStream(bytes.toByteArray()), "mem", null);
    }

    @Test
    void privateL1sSharedL3AndRoundRobinOrder() {
        CacheConfig l1 = CacheConfig.of("L1", 2 * 64, 64, 2);
        CacheConfig l3 = CacheConfig.of("L3", 64 * 64, 64, 4);
        Hierarchy h = new Hierarchy(HierarchyConfig.multiCore(List.of(l1, l3), 2));
        // both cores read lines 0..3: each L1 misses 4 times; the shared L3 misses only on the first touch
        long n = MultiCoreReplay.roundRobin(List.of(trace(0, 1, 2, 3), trace(0, 1, 2, 3, 9)), h, 1, dev.sparseprof.util.Progress.NONE, -1);
        h.close();
        assertEquals(9, n);
        HierarchyStats s = h.snapshot();
        assertEquals(4, s.level("L1#0").misses().total());
        assertEquals(5, s.level("L1#1").misses().total());
        assertEquals(9, s.level("L3").fetches().read());
        assertEquals(5, s.level("L3").misses().read()); // round-robin: core 0 brings each line first
        assertEquals(9, s.accesses());
    }

    @Test
    void inclusiveSharedLevelBackInvalidatesOtherCores() {
        CacheConfig l1 = CacheConfig.of("L1", 4 * 64, 64, 4);
        CacheConfig l3 = CacheConfig.of("L3", 2 * 64, 64, 2).withInclusion(Inclusion.INCLUSIVE);
        Hierarchy h = new Hierarchy(HierarchyConfig.multiCore(List.of(l1, l3), 2));
        h.core(0).access(AccessKind.READ, 0, 4, ArrayRole.VALUES);      // A in L1#0 and L3
        h.core(1).access(AccessKind.READ, 64, 4, ArrayRole.VALUES);     // B in L1#1 and L3
        h.core(1).access(AccessKind.READ, 128, 4, ArrayRole.VALUES);    // C: L3 evicts A, so L1#0 loses it
        h.core(0).access(AccessKind.READ, 0, 4, ArrayRole.VALUES);      // A misses again in L1#0
        HierarchyStats s = h.snapshot();
        assertEquals(1, s.level("L1#0").backInvalidations());
        assertEquals(1, s.level("L1#1").backInvalidations()); // A's return evicts B from L3, and so from L1#1
        assertEquals(2, s.level("L1#0").misses().total());
        assertEquals(4, s.memory().requests().read());
    }
}
