package dev.sparseprof.calibrate;

import java.util.Locale;

/**
 * The free parameters of the CPU time model the calibration fits, each a positive quantity of the
 * spec: the effective bandwidth of each cache level and of DRAM (the whole curve scales), the
 * per-row and per-non-zero overhead cycles, the launch (fork/join) overhead, and the compute
 * roof (as the clock). The fit works on their logarithms, so every fitted value stays positive.
 */
public enum FitParameter {
    L1_BANDWIDTH, L2_BANDWIDTH, L3_BANDWIDTH, DRAM_BANDWIDTH, PER_ROW_CYCLES, PER_NNZ_CYCLES, LAUNCH_SECONDS, CLOCK;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The fixed costs, which may fit to zero; the bandwidths and the clock may not. */
    boolean isOverhead() {
        return this == PER_ROW_CYCLES || this == PER_NNZ_CYCLES || this == LAUNCH_SECONDS;
    }

    /** The cache level index for the bandwidth parameters, -1 otherwise. */
    int cacheIndex() {
        return switch (this) {
            case L1_BANDWIDTH -> 0;
            case L2_BANDWIDTH -> 1;
            case L3_BANDWIDTH -> 2;
            default -> -1;
        };
    }
}
