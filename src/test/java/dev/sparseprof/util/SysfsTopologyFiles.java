package dev.sparseprof.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the part of Linux's CPU topology the tests of {@link CoreSiblings} and its users read. */
public final class SysfsTopologyFiles {
    private SysfsTopologyFiles() {}

    /** {@code root/cpuN/topology/FILE} holding {@code siblings} ({@code file}: {@code core_cpus_list} or {@code thread_siblings_list}). */
    public static void siblings(Path root, int cpu, String file, String siblings) throws IOException {
        Path t = Files.createDirectories(root.resolve("cpu" + cpu).resolve("topology"));
        Files.writeString(t.resolve(file), siblings + "\n");
    }
}
