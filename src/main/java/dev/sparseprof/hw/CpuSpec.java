package dev.sparseprof.hw;

import java.util.List;

/**
 * A multicore CPU: {@code cores} at {@code clockHertz}, {@code simdBits}-wide FMA units,
 * {@code fmaPorts} of them per core, private and shared caches innermost first, DRAM bandwidth by
 * active core count. Vector peaks are derived: cores x clock x lanes x ports x 2.
 * {@code missesInFlight} is the memory-level parallelism of one core: the L1D misses it keeps
 * outstanding at once (miss buffers), which bounds a gather's rate by Little's law.
 * {@code model} is the CPU model name a probe read ({@code /proc/cpuinfo}; empty when not known): the
 * machine identity that measurements are checked against. {@code inCore}: the probed in-core rates
 * of the kernels ({@link InCoreRates#NONE} when not probed).
 */
public record CpuSpec(String name, String source, int cores, double clockHertz, int simdBits, int fmaPorts,
                      List<CacheLevel> caches, DramSpec dram, ComputePeaks peaks, KernelOverheads overheads, int missesInFlight,
                      String model, InCoreRates inCore)
        implements HardwareSpec {
    /** Outstanding L1D misses per core when the spec gives none (U: 16 fill buffers, a common figure for recent x86 cores). */
    public static final int DEFAULT_MISSES_IN_FLIGHT = 16;

    public CpuSpec {
        if (cores <= 0) throw new SpecException(source + ": cpu.cores must be positive");
        if (!(clockHertz > 0)) throw new SpecException(source + ": cpu.clock must be positive");
        if (simdBits < 64 || simdBits % 64 != 0) throw new SpecException(source + ": cpu.simdWidth must be a multiple of 64 bits");
        if (fmaPorts <= 0) throw new SpecException(source + ": cpu.fmaPorts must be positive");
        if (caches.isEmpty()) throw new SpecException(source + ": cpu.caches needs at least one level");
        if (missesInFlight <= 0) throw new SpecException(source + ": cpu.missesInFlight must be positive");
        caches = List.copyOf(caches);
        if (model == null) model = "";
        if (inCore == null) inCore = InCoreRates.NONE;
        if (inCore.present() && inCore.vectorBits() != simdBits) {
            throw new SpecException(source + ": cpu.inCore was probed at " + inCore.vectorBits() + " bits, cpu.simdWidth is " + simdBits
                    + " bits (probe again at this width)");
        }
    }

    /** Without a model name or in-core rates. */
    public CpuSpec(String name, String source, int cores, double clockHertz, int simdBits, int fmaPorts,
                   List<CacheLevel> caches, DramSpec dram, ComputePeaks peaks, KernelOverheads overheads, int missesInFlight) {
        this(name, source, cores, clockHertz, simdBits, fmaPorts, caches, dram, peaks, overheads, missesInFlight, "", InCoreRates.NONE);
    }

    /** Without a memory-level parallelism figure: {@link #DEFAULT_MISSES_IN_FLIGHT}. */
    public CpuSpec(String name, String source, int cores, double clockHertz, int simdBits, int fmaPorts,
                   List<CacheLevel> caches, DramSpec dram, ComputePeaks peaks, KernelOverheads overheads) {
        this(name, source, cores, clockHertz, simdBits, fmaPorts, caches, dram, peaks, overheads, DEFAULT_MISSES_IN_FLIGHT);
    }

    @Override
    public int parallelUnits() {
        return cores;
    }

    /** The physical cores under the {@code cores} threads ({@link CoreTeam#coresUnder}): SMT siblings share one core's L1 and L2. */
    @Override
    public int privateCacheInstances() {
        return inCore.team().coresUnder(cores);
    }

    @Override
    public List<CacheLevel> cacheLevels() {
        return caches;
    }

    /** Peak FLOP/s of one core for a dtype of {@code bits} width (FMA = 2 flops). */
    public double corePeakFlopsPerSecond(int bits) {
        return clockHertz * ((double) simdBits / bits) * fmaPorts * 2.0;
    }
}
