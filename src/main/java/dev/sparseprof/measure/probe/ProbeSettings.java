package dev.sparseprof.measure.probe;

import dev.sparseprof.util.SparseprofException;

/**
 * How hard the probe works. {@link #DEFAULT} keeps a whole probe under about 30 s on a 2-core VM (DRAM working set 512 MiB):
 * many short trials (2 ms), of which the roofs take the best. On a loaded machine (load average 15 on
 * 2 vCPUs while eight engineers shared it) every 20 ms trial was cut by other tenants' time slices:
 * 5 such trials measured the L2 at 42 GB/s and DRAM at 5 GB/s, against 186 and 28 unloaded.
 *
 * @param trials             timed trials per point (median reported)
 * @param minTrialSeconds    the least one trial lasts (repetitions are doubled until it does)
 * @param dramWorkingSetBytes the DRAM working set, all arrays and threads together (capped by the heap)
 * @param allThreads         the "all cores" thread count
 */
public record ProbeSettings(int trials, double minTrialSeconds, long dramWorkingSetBytes, int allThreads) {
    public static final ProbeSettings DEFAULT = new ProbeSettings(25, 0.002, 512L << 20,
            Runtime.getRuntime().availableProcessors());

    public ProbeSettings {
        if (trials < 1) throw new SparseprofException("probe: trials must be at least 1, got " + trials);
        if (!(minTrialSeconds > 0)) throw new SparseprofException("probe: trial time must be positive");
        if (dramWorkingSetBytes < (1L << 20)) throw new SparseprofException("probe: DRAM working set must be at least 1 MiB");
        if (allThreads < 1) throw new SparseprofException("probe: threads must be at least 1");
    }
}
