package dev.sparseprof.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one reader of Linux's SMT topology: {@code cpuN/topology/core_cpus_list} (kernels since 5.7;
 * {@code thread_siblings_list} before) lists the CPUs that share CPU N's physical core, so CPUs with
 * the same list are hyperthreads of one core. {@link CoreAffinity#pinnable} orders a team's CPUs by
 * it ({@link #spreadOverCores}) and the probe counts the cores under its team
 * ({@code measure.probe.CoreTopology}).
 *
 * <p>A hypervisor shows its guest the topology it chooses: two vCPUs that are one host core's
 * hyperthreads but are shown as two cores are not seen here.
 */
public final class CoreSiblings {
    /** Linux's CPU folder. */
    public static final Path SYSFS = Path.of("/sys/devices/system/cpu");

    private CoreSiblings() {}

    /** The list of CPUs sharing {@code cpu}'s core as sysfs under {@code root} writes it ({@code 0-1}, {@code 3,67}), or null. */
    public static String of(Path root, int cpu) {
        Path topology = root.resolve("cpu" + cpu).resolve("topology");
        for (String name : new String[] {"core_cpus_list", "thread_siblings_list"}) {
            try {
                String list = Files.readString(topology.resolve(name)).strip();
                if (!list.isEmpty()) return list;
            } catch (IOException | RuntimeException e) {
                // the older name, or nothing known
            }
        }
        return null;
    }

    /**
     * {@code cpus} in the order a team should take them: one CPU of every physical core first (the
     * cores in the order of their first CPU in {@code cpus}), then every core's second CPU, and so on,
     * as OpenMP's {@code OMP_PLACES=cores} with {@code OMP_PROC_BIND=spread} places threads. So the
     * first {@code t} CPUs span {@code min(t, cores)} physical cores, and two threads never share a
     * core while a core is idle. On a 4-vCPU guest whose siblings are numbered next to each other
     * (0-1, 2-3), ascending order would put a 2-thread run on one core's two hyperthreads.
     * Unchanged (ascending as given) where any CPU's siblings cannot be read.
     */
    public static int[] spreadOverCores(Path root, int[] cpus) {
        Map<String, List<Integer>> byCore = new LinkedHashMap<>();
        for (int cpu : cpus) {
            String siblings = of(root, cpu);
            if (siblings == null) return cpus.clone();
            byCore.computeIfAbsent(siblings, k -> new ArrayList<>()).add(cpu);
        }
        int[] out = new int[cpus.length];
        int n = 0;
        for (int rank = 0; n < cpus.length; rank++) {
            for (List<Integer> core : byCore.values()) if (rank < core.size()) out[n++] = core.get(rank);
        }
        return out;
    }
}
