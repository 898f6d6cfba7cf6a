package dev.sparseprof.measure.probe;

import dev.sparseprof.util.SparseprofException;

/**
 * How hard the probe works. {@link #DEFAULT} keeps a whole probe under about 30 s on a 2-core VM (DRAM working set 512 MiB).
 *
 * @param trials             timed trials per point (median reported)
 * @param minTrialSeconds    the least one trial lasts (repetitions are doubled until it does)
 * @param dramWorkingSetBytes the DRAM working set, all arrays and threads together (capped by the heap)
 * @param allThreads         the "all cores" thread count
 */
public record ProbeSettings(int trials, double minTrialSeconds, long dramWorkingSetBytes, int allThreads) {
    public static final ProbeSettings DEFAULT = new ProbeSettings(5, 0.02, 512L << 20,
            Runtime.getRuntime().availableProcessors());

    public ProbeSettings {
        if (trials < 1) throw new SparseprofException("probe: trials must be at least 1, got " + trials);
        if (!(minTrialSeconds > 0)) throw new SparseprofException("probe: trial time must be positive");
        if (dramWorkingSetBytes < (1L << 20)) throw new SparseprofException("probe: DRAM working set must be at least 1 MiB");
        if (allThreads < 1) throw new SparseprofException("probe: threads must be at least 1");
    }
}
