package dev.sparseprof.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WriteTurnsTest {
    @Test
    void twoWritersTakeDifferentFilesWhileTwoHaveWork() {
        WriteTurns turns = new WriteTurns(new long[][] {{10, 50, 20}, {40, 40}, {5}});
        WriteTurns.Task a = turns.next(null);
        WriteTurns.Task b = turns.next(null);
        assertEquals(new WriteTurns.Task(0, 1, 50), a, "the file with the most bytes left, its largest task first");
        assertEquals(new WriteTurns.Task(1, 0, 40), b, "not the file the other writer holds");
        WriteTurns.Task c = turns.next(a);
        assertEquals(0, c.file(), "file 0 is free again and has the most bytes left (30 against 2's 5)");
        WriteTurns.Task d = turns.next(b);
        assertNotEquals(c.file(), d.file());
    }

    @Test
    void sharesAFileOnlyWhenNoOtherHasWork() {
        WriteTurns turns = new WriteTurns(new long[][] {{10, 20, 30}});
        WriteTurns.Task a = turns.next(null);
        WriteTurns.Task b = turns.next(null);
        assertEquals(30, a.bytes());
        assertEquals(20, b.bytes());
        assertEquals(10, turns.next(a).bytes());
        assertNull(turns.next(b));
    }

    @Test
    void everyTaskRunsOnceOnAnyThreadCount() throws IOException {
        long[][] bytes = {{3, 1, 4, 1, 5}, {9, 2, 6}, {}, {5, 3, 5, 8}};
        for (int threads : new int[] {1, 2, 3, 5}) {
            WriteTurns turns = new WriteTurns(bytes);
            assertEquals(12, turns.size());
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            WriteTurns.run(turns, threads, 64, (task, buffer) -> seen.add(task.file() + ":" + task.item()));
            assertEquals(12, seen.size());
            assertEquals(12, new HashSet<>(seen).size());
        }
    }

    @Test
    void theFirstFailureStopsTheRunAndIsThrown() {
        AtomicInteger ran = new AtomicInteger();
        WriteTurns turns = new WriteTurns(new long[][] {{1, 1, 1, 1, 1, 1, 1, 1}});
        IOException e = assertThrows(IOException.class, () -> WriteTurns.run(turns, 2, 64, (task, buffer) -> {
            ran.incrementAndGet();
            throw new IOException("disk full");
        }));
        assertEquals("disk full", e.getMessage());
        assertTrue(ran.get() <= 2, "no thread takes a task after a failure: " + ran.get());
    }
}
