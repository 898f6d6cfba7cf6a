package dev.sparseprof.measure.probe;

import dev.sparseprof.util.CoreAffinity;
import dev.sparseprof.util.CoreSiblings;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Which CPUs of a team are SMT siblings of one physical core, from Linux's sysfs topology
 * ({@link CoreSiblings}): the team's CPUs span as many physical cores as distinct sibling lists.
 * The team's threads run on the CPUs its pinned pools take ({@link CoreAffinity#pinnable}: thread t on
 * the t-th, one CPU per core first). A hypervisor shows its guest the topology it chooses: a guest
 * whose two vCPUs are one host core's hyperthreads but which is told they are two cores is not seen
 * here (the probe's team FMA pace still is).
 */
public final class CoreTopology {
    private CoreTopology() {}

    /**
     * Physical cores under the team of {@code threads} threads on this machine, or 0 where the
     * topology cannot be read (another OS, a hidden sysfs, an unpinned team on more CPUs than it has).
     */
    public static int coresUnderTeam(int threads) {
        int[] cpus = CoreAffinity.pinnable();
        if (cpus.length == 0) cpus = CoreAffinity.processCpus();
        if (cpus.length == 0 && Runtime.getRuntime().availableProcessors() == threads) {
            cpus = new int[threads];
            for (int i = 0; i < threads; i++) cpus[i] = i;
        }
        return coresUnder(CoreSiblings.SYSFS, cpus, threads);
    }

    /**
     * Physical cores under thread {@code t} on {@code cpus[t % cpus.length]} for every t below
     * {@code threads}, from the topology under {@code root}; 0 where any CPU's siblings cannot be read
     * or {@code cpus} has fewer CPUs than the team has threads (an unpinned team: where its threads run
     * is the scheduler's choice).
     */
    static int coresUnder(Path root, int[] cpus, int threads) {
        if (threads < 1 || cpus.length < threads) return 0;
        Set<String> cores = new HashSet<>();
        for (int t = 0; t < threads; t++) {
            String siblings = CoreSiblings.of(root, cpus[t]);
            if (siblings == null) return 0;
            cores.add(siblings);
        }
        return cores.size();
    }
}
