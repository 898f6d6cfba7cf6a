package dev.sparseprof.measure.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sparseprof.util.SysfsTopologyFiles;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The physical cores under a team's CPUs, from a sysfs topology written here. */
class CoreTopologyTest {
    @TempDir
    Path root;

    private void cpu(int cpu, String file, String siblings) throws IOException {
        SysfsTopologyFiles.siblings(root, cpu, file, siblings);
    }

    @Test
    void siblingsOfOneCoreCountOnce() throws IOException {
        // a 2-vCPU cloud guest whose vCPUs are one core's hyperthreads
        cpu(0, "core_cpus_list", "0-1");
        cpu(1, "core_cpus_list", "0-1");
        assertEquals(1, CoreTopology.coresUnder(root, new int[] {0, 1}, 2));
        assertEquals(1, CoreTopology.coresUnder(root, new int[] {0, 1}, 1));
    }

    @Test
    void cpusOnCoresOfTheirOwnCountEach() throws IOException {
        // the VMs seen so far, and a host numbering siblings apart (0 and 8 share a core); older kernels name the file thread_siblings_list
        cpu(0, "thread_siblings_list", "0,8");
        cpu(1, "thread_siblings_list", "1,9");
        cpu(8, "thread_siblings_list", "0,8");
        assertEquals(2, CoreTopology.coresUnder(root, new int[] {0, 1}, 2));
        assertEquals(1, CoreTopology.coresUnder(root, new int[] {0, 8}, 2));
    }

    @Test
    void anUnreadableTopologyOrAnUnpinnedTeamIsNotKnown() throws IOException {
        cpu(0, "core_cpus_list", "0");
        assertEquals(0, CoreTopology.coresUnder(root, new int[] {0, 1}, 2), "cpu 1 has no topology");
        assertEquals(0, CoreTopology.coresUnder(root, new int[] {0}, 2), "fewer pinnable CPUs than threads");
        assertEquals(0, CoreTopology.coresUnder(root.resolve("missing"), new int[] {0, 1}, 2));
    }
}
