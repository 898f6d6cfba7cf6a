package dev.sparseprof.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeasuredSetTest {
    /** A set kept as a record says so in every report line that names it; a current set's label is its machine and name. */
    @Test
    void aStaleSetIsLabelledSo(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("m"));
        Files.writeString(dir.resolve("m/probe.yaml"), "version: 1\n");
        Files.writeString(dir.resolve("m/runs.json"), "{}");
        Path sets = dir.resolve("sets.yaml");
        Files.writeString(sets, """
                version: 1
                sets:
                  - name: check
                    machine: m
                    uncalibrated: m/probe.yaml
                    measurements:
                      - file: m/runs.json
                  - name: check
                    machine: m
                    stale: "its probe predates the kernel-rate keys"
                    uncalibrated: m/probe.yaml
                    measurements:
                      - file: m/runs.json
                """);
        List<MeasuredSet> read = MeasuredSet.read(sets);
        assertEquals("m/check", read.get(0).label());
        assertEquals("m/check (stale)", read.get(1).label());
        assertEquals("its probe predates the kernel-rate keys", read.get(1).stale());
        Files.writeString(sets, Files.readString(sets).replace("stale:", "stal:"));
        SparseprofException e = assertThrows(SparseprofException.class, () -> MeasuredSet.read(sets));
        assertTrue(e.getMessage().contains("stal"), e.getMessage());
    }
}
