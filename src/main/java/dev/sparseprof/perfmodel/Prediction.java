package dev.sparseprof.perfmodel;

/**
 * A predicted kernel time: the roofline part (the largest of the compute time and each memory
 * level's time) plus fixed overheads. {@code levelSeconds[i]} belongs to {@code traffic.levels()[i]}
 * and is NaN where the spec gives that level no bandwidth; {@code latencySeconds} is the CPU gather
 * latency roof (0 where none). {@code bottleneck} names the largest term: {@code compute}, a level
 * name, {@code latency}, or {@code overhead} when fixed costs exceed every roof.
 */
public record Prediction(KernelPlan plan, Traffic traffic, double seconds, double computeSeconds, double[] levelSeconds,
                         double latencySeconds, double overheadSeconds, double imbalanceFactor, String bottleneck, double runs) {
    public Prediction {
        levelSeconds = levelSeconds.clone();
        if (!(runs > 0 && runs <= 1)) throw new IllegalArgumentException("runs " + runs);
    }

    /** One run of the plan. */
    public Prediction(KernelPlan plan, Traffic traffic, double seconds, double computeSeconds, double[] levelSeconds,
                      double latencySeconds, double overheadSeconds, double imbalanceFactor, String bottleneck) {
        this(plan, traffic, seconds, computeSeconds, levelSeconds, latencySeconds, overheadSeconds, imbalanceFactor, bottleneck, 1);
    }

    /**
     * The expectation over a batch of a GEMM that runs with probability {@code runs} (a routed
     * expert: {@link Workload#runs}): every time and byte times {@code runs}, the plan, imbalance and
     * bottleneck those of a run.
     */
    public Prediction expected(double runs) {
        if (runs == 1) return this;
        double[] levels = levelSeconds.clone();
        for (int i = 0; i < levels.length; i++) levels[i] *= runs;
        return new Prediction(plan, traffic.scaled(runs), seconds * runs, computeSeconds * runs, levels, latencySeconds * runs,
                overheadSeconds * runs, imbalanceFactor, bottleneck, this.runs * runs);
    }

    @Override
    public double[] levelSeconds() {
        return levelSeconds.clone();
    }

    /** Executed FLOPs per byte arriving at level {@code i} (DRAM is the last level). */
    public double arithmeticIntensity(int level) {
        double b = traffic.bytesAt(level);
        return b > 0 ? runs * plan.executedFlops() / b : Double.POSITIVE_INFINITY;
    }

    public double achievedFlopsPerSecond() {
        return runs * plan.executedFlops() / seconds;
    }
}
