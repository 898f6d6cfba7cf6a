package dev.sparseprof.measure;

/**
 * The times of one kernel's timed repetitions: median and spread (min, max, quartiles), and the
 * median over repetitions of the thread imbalance (max / mean of the per-thread times; 1 is
 * perfect balance).
 */
public record Timing(int repetitions, double medianSeconds, double minSeconds, double maxSeconds,
                     double q1Seconds, double q3Seconds, double imbalance) {
    public Timing {
        if (repetitions < 1) throw new IllegalArgumentException("no repetitions");
        if (!(minSeconds <= medianSeconds && medianSeconds <= maxSeconds)) {
            throw new IllegalArgumentException("times out of order: " + minSeconds + " " + medianSeconds + " " + maxSeconds);
        }
        if (!(imbalance >= 1.0 - 1e-9)) throw new IllegalArgumentException("imbalance " + imbalance + " below 1");
    }

    /** Interquartile range over the median: the repetitions' own noise. */
    public double spread() {
        return (q3Seconds - q1Seconds) / medianSeconds;
    }
}
