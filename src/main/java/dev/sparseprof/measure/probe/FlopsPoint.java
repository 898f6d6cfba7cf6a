package dev.sparseprof.measure.probe;

/**
 * Measured FMA throughput of {@code threads} threads for a {@code bits}-wide float type (FMA = 2 flops).
 *
 * @param medianFlopsPerSecond median over the trials
 * @param bestFlopsPerSecond   the fastest trial
 */
public record FlopsPoint(int bits, int threads, double medianFlopsPerSecond, double bestFlopsPerSecond) {
    public FlopsPoint {
        if (bits != 32 && bits != 64) throw new IllegalArgumentException("bits must be 32 or 64");
        if (threads <= 0) throw new IllegalArgumentException("threads must be positive");
        if (!(medianFlopsPerSecond > 0) || !(bestFlopsPerSecond >= medianFlopsPerSecond)) {
            throw new IllegalArgumentException("rates must be positive with best >= median");
        }
    }
}
