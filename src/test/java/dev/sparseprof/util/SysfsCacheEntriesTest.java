package dev.sparseprof.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SysfsCacheEntriesTest {
    private static void entry(Path root, int index, String level, String type, String size, String ways, String line) throws IOException {
        Path dir = Files.createDirectories(root.resolve("index" + index));
        Files.writeString(dir.resolve("level"), level + "\n");
        Files.writeString(dir.resolve("type"), type + "\n");
        Files.writeString(dir.resolve("size"), size + "\n");
        if (ways != null) Files.writeString(dir.resolve("ways_of_associativity"), ways + "\n");
        if (line != null) Files.writeString(dir.resolve("coherency_line_size"), line + "\n");
    }

    @Test
    void readsEachEntryAndSkipsTheUnreadable(@TempDir Path root) throws IOException {
        entry(root, 0, "1", "Data", "48K", "12", "64");
        entry(root, 1, "1", "Instruction", "32K", "8", "64");
        entry(root, 2, "2", "Unified", "2048K", null, "64");
        entry(root, 3, "3", "Unified", "garbled", "15", "64");
        entry(root, 4, "3", "Unified", "491520K", "x", null);
        List<SysfsCacheEntries.Entry> e = SysfsCacheEntries.read(root);
        assertEquals(List.of(new SysfsCacheEntries.Entry(1, "data", 48L << 10, 12, 64),
                new SysfsCacheEntries.Entry(1, "instruction", 32L << 10, 8, 64),
                new SysfsCacheEntries.Entry(2, "unified", 2L << 20, 0, 64),
                new SysfsCacheEntries.Entry(3, "unified", 480L << 20, 0, 0)), e, "a garbled size drops the entry, a garbled way count reads 0");
        assertTrue(SysfsCacheEntries.read(root.resolve("missing")).isEmpty());
        assertEquals(32L << 20, SysfsCacheEntries.sizeBytes(" 32M\n"));
        assertEquals(4096, SysfsCacheEntries.sizeBytes("4096"));
    }
}
