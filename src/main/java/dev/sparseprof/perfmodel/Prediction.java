package dev.sparseprof.perfmodel;

/**
 * A predicted kernel time: the roofline part (the largest of the compute time and each memory
 * level's time) plus fixed overheads. {@code levelSeconds[i]} belongs to {@code traffic.levels()[i]}
 * and is NaN where the spec gives that level no bandwidth; {@code latencySeconds} is the CPU gather
 * latency roof (0 where none). {@code bottleneck} names the largest term: {@code compute}, a level
 * name, {@code latency}, or {@code overhead} when fixed costs exceed every roof.
 */
public record Prediction(KernelPlan plan, Traffic traffic, double seconds, double computeSeconds, double[] levelSeconds,
                         double latencySeconds, double overheadSeconds, double imbalanceFactor, String bottleneck) {
    public Prediction {
        levelSeconds = levelSeconds.clone();
    }

    @Override
    public double[] levelSeconds() {
        return levelSeconds.clone();
    }

    /** Executed FLOPs per byte arriving at level {@code i} (DRAM is the last level). */
    public double arithmeticIntensity(int level) {
        double b = traffic.bytesAt(level);
        return b > 0 ? plan.executedFlops() / b : Double.POSITIVE_INFINITY;
    }

    public double achievedFlopsPerSecond() {
        return plan.executedFlops() / seconds;
    }
}
