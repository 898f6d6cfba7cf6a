package dev.sparseprof.calibrate;

import java.util.Locale;

/**
 * One free parameter of the CPU time model the calibration fits, each a positive quantity of the
 * spec: the effective bandwidth of each cache level and of DRAM (the whole curve scales), the
 * per-row and per-non-zero overhead cycles, one format's own index-decode cycles
 * ({@code overheads.perNnzByFormat}, {@link #format} set), the launch overhead, the fork/join of
 * each further thread, the imbalance penalty (how much of the modelled load imbalance shows), the
 * dense GEMM's achievable fraction of peak, and the compute roof (as the clock); on a spec with
 * probed in-core rates, each rate of the ECM model ({@code cpu.inCore.<key>}, {@link #inCore}, the key in
 * {@code format}). The fit works on their logarithms, so every fitted value stays positive.
 */
public record FitParameter(Kind kind, String format) {
    /** What a parameter sets. */
    public enum Kind {
        L1_BANDWIDTH, L2_BANDWIDTH, L3_BANDWIDTH, DRAM_BANDWIDTH, PER_ROW_CYCLES, PER_NNZ_CYCLES, FORMAT_PER_NNZ_CYCLES,
        LAUNCH_SECONDS, FORK_JOIN_SECONDS, IMBALANCE_PENALTY, DENSE_EFFICIENCY, CLOCK, IN_CORE
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
        if ((kind == Kind.FORMAT_PER_NNZ_CYCLES || kind == Kind.IN_CORE) != (format != null)) {
            throw new IllegalArgumentException(kind + ": a format (or in-core key) goes with the per-format decode cycles and in-core rates only");
        }
    }

    /** One in-core rate of the ECM model: {@code cpu.inCore.<key>} (cycles, or bytes/s for {@code l2PerCore}). */
    public static FitParameter inCore(String key) {
        return new FitParameter(Kind.IN_CORE, key);
    }

    /** The in-core key of an {@link Kind#IN_CORE} parameter, else null. */
    public String inCoreKey() {
        return kind == Kind.IN_CORE ? format : null;
    }

    /** The format of a per-format decode parameter, else null. */
    public String decodeFormat() {
        return kind == Kind.FORMAT_PER_NNZ_CYCLES ? format : null;
    }

    /** The decode cycles per index of one format. */
    public static FitParameter perNnzCycles(String format) {
        return new FitParameter(Kind.FORMAT_PER_NNZ_CYCLES, format);
    }

    public String label() {
        if (kind == Kind.IN_CORE) return "in-core[" + format + "]";
        return format != null ? "per-nnz-cycles[" + format + "]" : kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The fixed costs and the imbalance penalty, which may fit to zero; the bandwidths, the clock and
     * the efficiency may not.
     */
    /** A bandwidth (bytes/s): a cache level's, DRAM's or an in-core per-core L2/L3 read rate; its time term is bytes over it. */
    boolean isBandwidth() {
        return kind == Kind.L1_BANDWIDTH || kind == Kind.L2_BANDWIDTH || kind == Kind.L3_BANDWIDTH || kind == Kind.DRAM_BANDWIDTH
                || (kind == Kind.IN_CORE && (format.equals("l2PerCore") || format.equals("l3PerCore")));
    }

    boolean isOverhead() {
        return kind == Kind.PER_ROW_CYCLES || kind == Kind.PER_NNZ_CYCLES || kind == Kind.FORMAT_PER_NNZ_CYCLES
                || kind == Kind.LAUNCH_SECONDS || kind == Kind.FORK_JOIN_SECONDS || kind == Kind.IMBALANCE_PENALTY
                || (kind == Kind.IN_CORE && !format.equals("l2PerCore"));
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
