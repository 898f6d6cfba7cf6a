package dev.sparseprof.measure.gpu;

import dev.sparseprof.util.SparseprofException;

/**
 * How each GPU kernel is timed: {@code warmup} untimed launches, then {@code reps} launches each
 * timed by a CUDA event pair; {@code seed} fixes the random activations; products of more than
 * {@code verifyLimitMacs} multiply-adds are not checked against the (single-threaded) CPU reference.
 */
public record GpuRunSettings(int warmup, int reps, long seed, long verifyLimitMacs) {
    public static final GpuRunSettings DEFAULT = new GpuRunSettings(5, 30, 42, 1L << 30);

    public GpuRunSettings {
        if (warmup < 0) throw new SparseprofException("gpu: warmup must not be negative");
        if (reps < 1) throw new SparseprofException("gpu: reps must be at least 1");
    }
}
