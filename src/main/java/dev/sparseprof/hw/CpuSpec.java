package dev.sparseprof.hw;

import java.util.List;

/**
 * A multicore CPU: {@code cores} at {@code clockHertz}, {@code simdBits}-wide FMA units,
 * {@code fmaPorts} of them per core, private and shared caches innermost first, DRAM bandwidth by
 * active core count. Vector peaks are derived: cores x clock x lanes x ports x 2.
 */
public record CpuSpec(String name, String source, int cores, double clockHertz, int simdBits, int fmaPorts,
                      List<CacheLevel> caches, DramSpec dram, ComputePeaks peaks, KernelOverheads overheads)
        implements HardwareSpec {
    public CpuSpec {
        if (cores <= 0) throw new SpecException(source + ": cpu.cores must be positive");
        if (!(clockHertz > 0)) throw new SpecException(source + ": cpu.clock must be positive");
        if (simdBits < 64 || simdBits % 64 != 0) throw new SpecException(source + ": cpu.simdWidth must be a multiple of 64 bits");
        if (fmaPorts <= 0) throw new SpecException(source + ": cpu.fmaPorts must be positive");
        if (caches.isEmpty()) throw new SpecException(source + ": cpu.caches needs at least one level");
        caches = List.copyOf(caches);
    }

    @Override
    public int parallelUnits() {
        return cores;
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
