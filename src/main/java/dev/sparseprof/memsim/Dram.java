package dev.sparseprof.memsim;

import java.util.Arrays;

/** The open-page row-buffer model of {@link DramConfig}: one open row per bank. */
final class Dram {
    private static final long CLOSED = -1;
    private final DramConfig config;
    private final long[] openRow;
    private final long burstsPerRow;
    private long requests;
    private long bursts;
    private long rowHits;
    private long rowMisses;
    private long rowConflicts;
    private long bytesRead;
    private long bytesWritten;
    private double latencySumSeconds;

    Dram(DramConfig config) {
        this.config = config;
        this.openRow = new long[config.channels() * config.banksPerChannel()];
        Arrays.fill(openRow, CLOSED);
        this.burstsPerRow = config.rowBytes() / config.burstBytes();
    }

    void access(long address, int sizeBytes, boolean write) {
        requests++;
        if (write) bytesWritten += sizeBytes;
        else bytesRead += sizeBytes;
        long first = Long.divideUnsigned(address, config.burstBytes());
        long last = Long.divideUnsigned(address + sizeBytes - 1, config.burstBytes());
        double worst = 0;
        for (long unit = first; unit - last <= 0; unit++) {
            bursts++;
            int channel = (int) Long.remainderUnsigned(unit, config.channels());
            long u = Long.divideUnsigned(unit, config.channels()) / burstsPerRow;
            int bank = (int) (u % config.banksPerChannel());
            long row = u / config.banksPerChannel();
            int b = channel * config.banksPerChannel() + bank;
            double latency;
            if (openRow[b] == row) {
                rowHits++;
                latency = config.rowHitSeconds();
            } else if (openRow[b] == CLOSED) {
                rowMisses++;
                latency = config.rowMissSeconds();
            } else {
                rowConflicts++;
                latency = config.rowConflictSeconds();
            }
            openRow[b] = row;
            worst = Math.max(worst, latency);
        }
        latencySumSeconds += worst;
    }

    DramStats snapshot() {
        return new DramStats(requests, bursts, rowHits, rowMisses, rowConflicts, bytesRead, bytesWritten,
                latencySumSeconds, config.peakBandwidthBytesPerSecond(), config.memoryLevelParallelism());
    }
}
