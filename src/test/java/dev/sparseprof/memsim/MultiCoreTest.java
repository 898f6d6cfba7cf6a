package dev.sparseprof.memsim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.trace.AccessKind;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.BinaryTraceReader;
import dev.sparseprof.trace.BinaryTraceWriter;
import dev.sparseprof.trace.TraceReader;
import dev.sparseprof.util.Progress;
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

    /** A timestamped trace of reads: {@code lineAndTime} holds (line, time) pairs. */
    static TraceReader timed(long... lineAndTime) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (BinaryTraceWriter w = new BinaryTraceWriter(bytes, true)) {
            for (int i = 0; i < lineAndTime.length; i += 2) w.accessAt(lineAndTime[i + 1], AccessKind.READ, lineAndTime[i] * 64, 4, ArrayRole.B_GATHER);
        }
        return new BinaryTraceReader(new ByteArrayInputStream(bytes.toByteArray()), "timed", null);
    }

    /** A hierarchy of one level of {@code ways} lines (one set, LRU) shared by two cores. */
    private static Hierarchy sharedOnly(int ways) {
        return new Hierarchy(HierarchyConfig.multiCore(List.of(CacheConfig.of("L3", ways * 64L, 64, ways)), 2));
    }

    @Test
    void timestampOrderDecidesTheSharedLevelsMisses() {
        CacheConfig l1 = CacheConfig.of("L1", 2 * 64, 64, 2);
        CacheConfig l3 = CacheConfig.of("L3", 2 * 64, 64, 2);
        // core 0 reads A B C at times 1 2 3, core 1 reads A D at 4 10 (A=0, B=1, C=2, D=3)
        Hierarchy byTime = new Hierarchy(HierarchyConfig.multiCore(List.of(l1, l3), 2));
        MultiCoreReplay.byTimestamp(List.of(timed(0, 1, 1, 2, 2, 3), timed(0, 4, 3, 10)), byTime, Progress.NONE, -1);
        // by time: A B C (C evicts A from the 2-line L3), then core 1's A misses (evicting B), D misses: 5
        assertEquals(5, byTime.snapshot().level("L3").misses().read());
        Hierarchy rr = new Hierarchy(HierarchyConfig.multiCore(List.of(l1, l3), 2));
        MultiCoreReplay.roundRobin(List.of(timed(0, 1, 1, 2, 2, 3), timed(0, 4, 3, 10)), rr, 1, Progress.NONE, -1);
        // round-robin: A (miss) A (hit) B D C: 4
        assertEquals(4, rr.snapshot().level("L3").misses().read());
    }

    @Test
    void equalTimesGoToTheLowerCore() {
        // core 0: A at 5, A at 6; core 1: B at 5. Ties to core 0: A B A through one shared line, 3 misses
        // (core 1 first would give B A A, 2 misses)
        Hierarchy h = sharedOnly(1);
        long n = MultiCoreReplay.byTimestamp(List.of(timed(0, 5, 0, 6), timed(1, 5)), h, Progress.NONE, -1);
        assertEquals(3, n);
        assertEquals(3, h.snapshot().level("L3").misses().read());
    }

    @Test
    void mergeRunsAcrossChunksInTimeOrder() {
        int k = 10_000; // more than two chunks per core
        long[] even = new long[2 * k];
        long[] odd = new long[2 * k];
        long[] late = new long[2 * k];
        for (int i = 0; i < k; i++) {
            even[2 * i + 1] = 2L * i;     // core 0 at even times, line 0
            odd[2 * i] = 1;               // core 1 at odd times, line 1
            odd[2 * i + 1] = 2L * i + 1;
            late[2 * i] = 1;              // or all of core 1 after all of core 0
            late[2 * i + 1] = 2L * k + i;
        }
        Hierarchy alternating = sharedOnly(1);
        MultiCoreReplay.byTimestamp(List.of(timed(even), timed(odd)), alternating, Progress.NONE, -1);
        assertEquals(2 * k, alternating.snapshot().level("L3").misses().read()); // every access evicts the other core's line
        Hierarchy sequential = sharedOnly(1);
        MultiCoreReplay.byTimestamp(List.of(timed(late), timed(even)), sequential, Progress.NONE, -1);
        assertEquals(2, sequential.snapshot().level("L3").misses().read()); // core 1's run, then core 0's
        assertEquals(2L * k, sequential.snapshot().accesses());
    }

    @Test
    void privateL1sSharedL3AndRoundRobinOrder() {
        CacheConfig l1 = CacheConfig.of("L1", 2 * 64, 64, 2);
        CacheConfig l3 = CacheConfig.of("L3", 64 * 64, 64, 4);
        Hierarchy h = new Hierarchy(HierarchyConfig.multiCore(List.of(l1, l3), 2));
        // both cores read lines 0..3: each L1 misses 4 times; the shared L3 misses only on the first touch
        long n = MultiCoreReplay.roundRobin(List.of(trace(0, 1, 2, 3), trace(0, 1, 2, 3, 9)), h, 1, Progress.NONE, -1);
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
