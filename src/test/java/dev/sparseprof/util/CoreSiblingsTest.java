package dev.sparseprof.util;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A team's CPUs spread over the physical cores first, from sysfs topologies written here. */
class CoreSiblingsTest {
    @TempDir
    Path root;

    private void cpu(int cpu, String file, String siblings) throws IOException {
        SysfsTopologyFiles.siblings(root, cpu, file, siblings);
    }

    @Test
    void siblingsNumberedSideBySideAreTakenAfterEveryCore() throws IOException {
        // a 4-vCPU guest of 2 cores whose hyperthreads are numbered next to each other
        for (int c = 0; c < 4; c++) cpu(c, "core_cpus_list", c < 2 ? "0-1" : "2-3");
        assertArrayEquals(new int[] {0, 2, 1, 3}, CoreSiblings.spreadOverCores(root, new int[] {0, 1, 2, 3}));
        // taskset -c 0-2: the second core's one CPU before the first core's sibling
        assertArrayEquals(new int[] {0, 2, 1}, CoreSiblings.spreadOverCores(root, new int[] {0, 1, 2}));
        assertEquals("0-1", CoreSiblings.of(root, 1));
    }

    @Test
    void siblingsNumberedApartKeepTheAscendingOrder() throws IOException {
        // Intel's usual numbering: cpu n and n + cores share a core (older kernels: thread_siblings_list)
        for (int c = 0; c < 4; c++) cpu(c, "thread_siblings_list", (c % 2) + "," + (c % 2 + 2));
        assertArrayEquals(new int[] {0, 1, 2, 3}, CoreSiblings.spreadOverCores(root, new int[] {0, 1, 2, 3}));
    }

    @Test
    void oneCoresTwoThreadsAndCoresOfTheirOwnAreAsGiven() throws IOException {
        cpu(0, "core_cpus_list", "0-1");
        cpu(1, "core_cpus_list", "0-1");
        assertArrayEquals(new int[] {0, 1}, CoreSiblings.spreadOverCores(root, new int[] {0, 1}));
        cpu(5, "core_cpus_list", "5");
        cpu(7, "core_cpus_list", "7");
        assertArrayEquals(new int[] {5, 7}, CoreSiblings.spreadOverCores(root, new int[] {5, 7}));
    }

    @Test
    void anUnreadableTopologyLeavesTheOrderAlone() throws IOException {
        cpu(0, "core_cpus_list", "0-1");
        assertArrayEquals(new int[] {0, 1, 2}, CoreSiblings.spreadOverCores(root, new int[] {0, 1, 2}), "cpu 1 has no topology");
        assertArrayEquals(new int[] {0, 1}, CoreSiblings.spreadOverCores(root.resolve("missing"), new int[] {0, 1}));
        assertNull(CoreSiblings.of(root, 9));
        cpu(3, "core_cpus_list", "  ");
        assertNull(CoreSiblings.of(root, 3), "an empty list says nothing");
    }
}
