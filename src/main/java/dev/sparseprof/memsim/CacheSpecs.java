package dev.sparseprof.memsim;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.DramSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * Hierarchy configurations from text and from hardware specs: the
 * {@code NAME:SIZE:ASSOC:LINE[:POLICY[:WRITE]]} level syntax of {@code cachesim --level}, the
 * {@code CH:BANKS:ROW:BURST:BANDWIDTH:LATENCY} DRAM syntax, and the cache levels of an
 * {@link HardwareSpec}.
 */
public final class CacheSpecs {
    private CacheSpecs() {}

    /** {@code L1:32k:8:64}, {@code L1d:48KiB:12:64:plru}, {@code LLC:64m:full:64:lru:wb-wa}; ASSOC {@code full} is fully associative. */
    public static CacheConfig parseLevel(String text) {
        String[] f = text.split(":", -1);
        if (f.length < 4 || f.length > 6) {
            throw new SparseprofException("level '" + text + "' is not NAME:SIZE:ASSOC:LINE[:POLICY[:WRITE]]");
        }
        String name = f[0];
        if (name.isBlank()) throw new SparseprofException("level '" + text + "': empty name");
        long size = Units.parseBytes(f[1]);
        long line = Units.parseBytes(f[3]);
        if (line <= 0 || line > 1 << 20) throw new SparseprofException(name + ": line size " + f[3] + " out of range");
        int ways;
        if (f[2].equalsIgnoreCase("full")) {
            if (size % line != 0) throw new SparseprofException(name + ": size is not a multiple of the line");
            ways = (int) Math.min(Integer.MAX_VALUE, size / line);
        } else {
            try {
                ways = Integer.parseInt(f[2]);
            } catch (NumberFormatException e) {
                throw new SparseprofException(name + ": associativity '" + f[2] + "' is neither a number nor 'full'");
            }
        }
        CacheConfig c = CacheConfig.of(name, size, (int) line, ways);
        if (f.length > 4 && !f[4].isEmpty()) c = c.withPolicy(f[4]);
        if (f.length > 5 && !f[5].isEmpty()) c = c.withWritePolicy(WritePolicy.parse(f[5]));
        return c;
    }

    /** {@code 2:32:8KiB:64:76.8GB/s:90ns}: channels, banks per channel, row, burst, peak bandwidth, row-miss latency. */
    public static DramConfig parseDram(String text) {
        if (text.equals("ddr5")) return DramConfig.ddr5Dual();
        String[] f = text.split(":", -1);
        if (f.length != 6) throw new SparseprofException("DRAM '" + text + "' is not CHANNELS:BANKS:ROW:BURST:BANDWIDTH:LATENCY (or 'ddr5')");
        try {
            return fromLatency(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Units.parseBytes(f[2]), (int) Units.parseBytes(f[3]),
                    Units.parseBytesPerSecond(f[4]), Units.parseSeconds(f[5]));
        } catch (NumberFormatException e) {
            throw new SparseprofException("DRAM '" + text + "': channels and banks must be whole numbers");
        }
    }

    /**
     * A DRAM whose row-miss latency is {@code latencySeconds} (what a pointer chase measures);
     * a row hit saves tRCD and a conflict adds tRP, 16.7 ns each (DDR5-4800B: tRCD = tRP = 40 clocks
     * at 2400 MHz, JESD79-5). MLP 10.
     */
    static DramConfig fromLatency(int channels, int banks, long rowBytes, int burstBytes, double bandwidth, double latencySeconds) {
        double t = 40 / 2.4e9;
        double hit = Math.max(latencySeconds - t, latencySeconds / 2);
        return new DramConfig(channels, banks, rowBytes, burstBytes, bandwidth, hit, latencySeconds, latencySeconds + t, 10);
    }

    /**
     * The hierarchy of a hardware spec for {@code cores} cores (or SMs): its cache levels innermost
     * first, LRU write-back write-allocate, non-inclusive (specs do not say; override per level),
     * sectors from the spec; levels from the first {@code shared} one on are shared. DRAM: the spec's
     * latency and the bandwidth at {@code cores} active cores, on a 2-channel, 32-bank, 8 KiB-row,
     * 64-byte-burst layout (the spec gives no geometry).
     */
    public static HierarchyConfig fromHardware(HardwareSpec spec, int cores) {
        List<CacheConfig> levels = new ArrayList<>();
        int firstShared = -1;
        for (CacheLevel l : spec.cacheLevels()) {
            if (l.shared() && firstShared < 0) firstShared = levels.size();
            if (!l.shared() && firstShared >= 0) {
                throw new SparseprofException(spec.source() + ": private level " + l.name() + " below a shared one is not supported");
            }
            levels.add(CacheConfig.of(l.name(), l.sizeBytes(), l.lineBytes(), l.ways()).withSectors(l.lineBytes() / l.sectorBytes()));
        }
        if (firstShared < 0) firstShared = levels.size();
        DramSpec d = spec.dram();
        DramConfig dram = d == null ? null : fromLatency(2, 32, 8192, 64, d.bandwidth().at(cores), Math.max(d.latencySeconds(), 1e-9));
        return new HierarchyConfig(levels, cores, cores == 1 ? levels.size() : firstShared, dram);
    }

    /** Applies {@code NAME=VALUE} overrides to the named level; {@code kind} names the option in errors. */
    public static List<CacheConfig> override(List<CacheConfig> levels, String assignment, String kind) {
        int eq = assignment.indexOf('=');
        if (eq <= 0) throw new SparseprofException(kind + " '" + assignment + "' is not LEVEL=VALUE");
        String name = assignment.substring(0, eq);
        String value = assignment.substring(eq + 1);
        List<CacheConfig> out = new ArrayList<>();
        boolean found = false;
        for (CacheConfig c : levels) {
            if (c.name().equals(name)) {
                found = true;
                try {
                    c = apply(c, kind, value);
                } catch (SparseprofException e) {
                    throw new SparseprofException(kind + " " + assignment + ": " + e.getMessage());
                }
            }
            out.add(c);
        }
        if (!found) throw new SparseprofException(kind + " '" + assignment + "': no level named '" + name + "'");
        return out;
    }

    private static CacheConfig apply(CacheConfig c, String kind, String value) {
        return switch (kind) {
            case "--inclusion" -> c.withInclusion(Inclusion.parse(value));
            case "--prefetch" -> c.withPrefetcher(value);
            case "--sectors" -> c.withSectors(parseCount(value, kind));
            case "--policy" -> c.withPolicy(value);
            case "--write" -> c.withWritePolicy(WritePolicy.parse(value));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static int parseCount(String value, String kind) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new SparseprofException(kind + ": '" + value + "' is not a whole number");
        }
    }
}
