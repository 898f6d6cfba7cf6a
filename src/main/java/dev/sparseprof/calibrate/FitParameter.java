package dev.sparseprof.calibrate;

import java.util.Locale;

/**
 * One free parameter of the CPU time model the calibration fits, each a positive quantity of the
 * spec: the effective bandwidth of each cache level and of DRAM (the whole curve scales), the
 * per-row and per-non-zero overhead cycles, one format's own index-decode cycles
 * ({@code overheads.perNnzByFormat}, {@link #format} set), the launch overhead, the fork/join of
 * each further thread, the imbalance penalty (how much of the modelled load imbalance shows), the
 * dense GEMM's achievable fraction of peak, and the compute roof (as the clock). The fit works on
 * their logarithms, so every fitted value stays positive.
 */
public record FitParameter(Kind kind, String format) {
    /** What a parameter sets. */
    public enum Kind {
        L1_BANDWIDTH, L2_BANDWIDTH, L3_BANDWIDTH, DRAM_BANDWIDTH, PER_ROW_CYCLES, PER_NNZ_CYCLES, FORMAT_PER_NNZ_CYCLES,
        LAUNCH_SECONDS, FORK_JOIN_SECONDS, IMBALANCE_PENALTY, DENSE_EFFICIENCY, CLOCK
    }

    public static final FitParameter L1_BANDWIDTH = new FitParameter(Kind.L1_BANDWIDTH, null);
    public static final FitParameter L2_BANDWIDTH = new FitParameter(Kind.L2_BANDWIDTH, null);
    public static final FitParameter L3_BANDWIDTH = new FitParameter(Kind.L3_BANDWIDTH, null);
    public static final FitParameter DRAM_BANDWIDTH = new FitParameter(Kind.DRAM_BANDWIDTH, null);
    public static final FitParameter PER_ROW_CYCLES = new FitParameter(Kind.PER_ROW_CYCLES, null);
    public static final FitParameter PER_NNZ_CYCLES = new FitParameter(Kind.PER_NNZ_CYCLES, null);
    public static final FitParameter LAUNCH_SECONDS = new FitParameter(Kind.LAUNCH_SECONDS, null);
    public static final FitParameter FORK_JOIN_SECONDS = new FitParameter(Kind.FORK_JOIN_SECONDS, null);
    public static final FitParameter IMBALANCE_PENALTY = new FitParameter(Kind.IMBALANCE_PENALTY, null);
    public static final FitParameter DENSE_EFFICIENCY = new FitParameter(Kind.DENSE_EFFICIENCY, null);
    public static final FitParameter CLOCK = new FitParameter(Kind.CLOCK, null);

    public FitParameter {
        if ((kind == Kind.FORMAT_PER_NNZ_CYCLES) != (format != null)) {
            throw new IllegalArgumentException(kind + ": a format goes with the per-format decode cycles only");
        }
    }

    /** The decode cycles per index of one format. */
    public static FitParameter perNnzCycles(String format) {
        return new FitParameter(Kind.FORMAT_PER_NNZ_CYCLES, format);
    }

    public String label() {
        return format != null ? "per-nnz-cycles[" + format + "]" : kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The fixed costs and the imbalance penalty, which may fit to zero; the bandwidths, the clock and
     * the efficiency may not.
     */
    boolean isOverhead() {
        return kind == Kind.PER_ROW_CYCLES || kind == Kind.PER_NNZ_CYCLES || kind == Kind.FORMAT_PER_NNZ_CYCLES
                || kind == Kind.LAUNCH_SECONDS || kind == Kind.FORK_JOIN_SECONDS || kind == Kind.IMBALANCE_PENALTY;
    }

    /** The cache level index for the bandwidth parameters, -1 otherwise. */
    int cacheIndex() {
        return switch (kind) {
            case L1_BANDWIDTH -> 0;
            case L2_BANDWIDTH -> 1;
            case L3_BANDWIDTH -> 2;
            default -> -1;
        };
    }
}
