package dev.sparseprof.memsim;

import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;

/**
 * A DRAM system: {@code channels} independent channels of {@code banksPerChannel} banks, each bank
 * with one open row of {@code rowBytes}; transfers in bursts of {@code burstBytes}. Latencies are
 * those of a row hit (CAS only), a row miss on a closed bank (ACT + CAS) and a row conflict
 * (PRE + ACT + CAS). {@code memoryLevelParallelism} is how many misses overlap on average.
 *
 * <p>Address mapping (low to high bits): burst offset, channel, column (burst within the row),
 * bank, row; so consecutive bursts spread over channels and a row holds {@code rowBytes} of one
 * bank per channel.
 */
public record DramConfig(int channels, int banksPerChannel, long rowBytes, int burstBytes,
                         double peakBandwidthBytesPerSecond, double rowHitSeconds, double rowMissSeconds,
                         double rowConflictSeconds, double memoryLevelParallelism) {
    public DramConfig {
        Checks.positive(channels, "DRAM channels");
        Checks.positive(banksPerChannel, "DRAM banks per channel");
        Checks.positive(burstBytes, "DRAM burst size");
        if (rowBytes < burstBytes || rowBytes % burstBytes != 0) {
            throw new SparseprofException("DRAM row size " + rowBytes + " B is not a multiple of the burst " + burstBytes + " B");
        }
        if (!(peakBandwidthBytesPerSecond > 0)) throw new SparseprofException("DRAM peak bandwidth must be positive");
        if (!(rowHitSeconds > 0 && rowMissSeconds >= rowHitSeconds && rowConflictSeconds >= rowMissSeconds)) {
            throw new SparseprofException("DRAM latencies must satisfy 0 < row hit <= row miss <= row conflict");
        }
        if (!(memoryLevelParallelism >= 1)) throw new SparseprofException("DRAM memory-level parallelism must be at least 1");
    }

    /**
     * Two channels of DDR5-4800 as on a desktop Zen 4/5: 32 banks per channel (8 bank groups x 4),
     * 8 KiB rows (JESD79-5: 1 KiB page per x8 chip x 8 chips), 64-byte bursts (BL16 x 32-bit
     * subchannel), 76.8 GB/s peak (2 x 4800 MT/s x 8 B); tCL = tRCD = tRP = 40 clocks at 2400 MHz
     * (16.7 ns each), plus ~60 ns of controller and fabric latency per access, MLP 10.
     */
    public static DramConfig ddr5Dual() {
        double t = 40 / 2.4e9;
        double fabric = 60e-9;
        return new DramConfig(2, 32, 8192, 64, 76.8e9, fabric + t, fabric + 2 * t, fabric + 3 * t, 10);
    }
}
