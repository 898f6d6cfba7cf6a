package dev.sparseprof.hw;

/**
 * How the probe's team of {@code threads} pinned threads shares the machine: {@code cores}, the
 * physical cores under their CPUs (sysfs topology: fewer than {@code threads} where two of them are
 * SMT siblings of one core), and {@code fma}, the fp32 FMA throughput of all {@code threads} at once
 * over {@code threads} times one thread's (the team's trial lasts until its last thread ends, so this
 * is the slowest thread's pace beside the others). Spec keys {@code cpu.inCore.teamThreads},
 * {@code teamCores}, {@code teamFma}; {@link #NONE} in files written before 7 Dec 2026.
 *
 * <p>Why the model needs it: two threads on SMT siblings share one core's execution ports and its
 * private caches. Each CPU timed alone ({@code slowestCore}) runs at a whole core's pace; together
 * an FMA-bound loop gets about 0.5-0.6 of two cores' throughput, and the siblings' one L1 and L2
 * hold both threads' working sets at one core's bandwidth. Most 2-vCPU cloud instances are one core's
 * two hyperthreads; the VMs this project was measured on (Zen 4, Zen 5, Intel, all 2 vCPUs) give
 * each vCPU a core of its own (teamCores 2, teamFma 0.97-1.0 on 7 Dec 2026).
 *
 * <p>Contract: every answer is about a call on {@code runningThreads} pinned threads. The pinned
 * pools take the team's CPUs one per physical core first ({@code util.CoreAffinity#pinnable}), so
 * {@code t <= threads} threads span {@code min(t, cores)} cores, and where {@code t} exceeds the cores
 * some thread shares its core and the call goes at the siblings' pace ({@code fma}, measured with
 * every core's siblings busy). Beyond the team's size nothing is known and each thread is taken to
 * have a core of its own at full pace.
 */
public record CoreTeam(int threads, int cores, double fma) {
    /** Not probed: each thread on a core of its own, at full pace. */
    public static final CoreTeam NONE = new CoreTeam(0, 0, Double.NaN);

    public CoreTeam {
        if (threads < 0 || cores < 0 || cores > threads || (threads > 0 && cores < 1)) {
            throw new SpecException("cpu.inCore: teamCores must lie in [1, teamThreads], got " + cores + " of " + threads);
        }
        if (!Double.isNaN(fma) && !(fma > 0 && fma <= 2)) throw new SpecException("cpu.inCore.teamFma must lie in (0, 2], got " + fma);
    }

    /** Whether the probe measured a team. */
    public boolean present() {
        return threads > 0;
    }

    /**
     * Physical cores under {@code runningThreads} pinned threads: {@code min(runningThreads, cores)} up
     * to the team's size (the pools fill every core before a sibling), else one per thread.
     */
    public int coresUnder(int runningThreads) {
        return present() && runningThreads <= threads ? Math.min(runningThreads, cores) : runningThreads;
    }

    /**
     * The slowest thread's FMA pace on {@code runningThreads} threads over one thread's alone, at most 1:
     * the team's measured ratio where that many threads put two on one core (SMT siblings), else 1.
     * Where each thread has a core, the ratio is the machine's minute, not its structure: on the Zen 5
     * VM it read 0.89-1.03 in the probes of 7 Dec, and the one probe at 0.891 (256 bits, 17:00 UTC)
     * made that set's 2-thread predictions worse (held-out 11.3 -> 14.9 %); {@code slowestCore}, each
     * CPU re-taken until settled, stands for unequal cores there.
     */
    public double paceOn(int runningThreads) {
        return runningThreads > coresUnder(runningThreads) && !Double.isNaN(fma) ? Math.min(1, fma) : 1;
    }
}
