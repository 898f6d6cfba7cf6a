package dev.sparseprof.hw;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kernel-level model parameters the roofline does not see (defaults from the spec's
 * {@code overheads:} section, replaced by calibration): the launch of one kernel (GPU launch, CPU
 * fork/join), the per-row setup of a sparse kernel (row pointer read, accumulator init, store) and
 * the decode of one stored index (per non-zero or per 2:4 metadata group), both in clock cycles of
 * one core or SM. {@code gatherCycles}: issue cycles per gathered B row slice (one per index and
 * column tile) not hidden behind the FMAs (value broadcast, address arithmetic).
 * {@code denseEfficiency}: the fraction of the compute peak a dense tiled GEMM's inner loop
 * sustains (in (0, 1]; on a GPU the tile pipeline model gives the losses it knows, this scales
 * the rest). {@code tileStepCycles}: the fixed cycles of one K step of a GPU tile's main loop
 * (waiting for the stage's copies, the block barrier, advancing the pointers). {@code tensorTileRows x tensorTileCols} is the output tile one SM computes
 * in a tensor-core GEMM; it sets the wave quantisation of dense and 2:4 GEMMs.
 * {@code perNnzCyclesByFormat}: a format's own index-decode cycles (format registry name ->
 * cycles per decoded index), replacing {@code perNnzCycles} for that format (each format's loop
 * decodes differently: COO reads two indices and branches on row changes, BSR broadcasts a whole
 * block per index); calibration fits them per format.
 * {@code forkJoinSeconds}: a CPU kernel's hand-off to and join of each thread beyond the first, per
 * call ({@link #launchSeconds(int)}; 0 on a GPU, whose launch is {@code launchSeconds}).
 * {@code imbalancePenalty}: how much of the modelled load imbalance shows in the time, as
 * {@code 1 + penalty x (factor - 1)} ({@link #penalizedImbalance}); 1 takes the schedule's factor
 * as it is, calibration fits it from multi-threaded runs.
 */
public record KernelOverheads(double launchSeconds, double perRowCycles, double perNnzCycles,
                              int tensorTileRows, int tensorTileCols, double gatherCycles, double denseEfficiency,
                              double tileStepCycles, Map<String, Double> perNnzCyclesByFormat,
                              double forkJoinSeconds, double imbalancePenalty) {
    public KernelOverheads {
        if (!(forkJoinSeconds >= 0) || Double.isInfinite(forkJoinSeconds)) {
            throw new SpecException("overheads: forkJoin must not be negative, got " + forkJoinSeconds);
        }
        if (!(imbalancePenalty >= 0) || Double.isInfinite(imbalancePenalty)) {
            throw new SpecException("overheads: imbalancePenalty must not be negative, got " + imbalancePenalty);
        }
        perNnzCyclesByFormat = Collections.unmodifiableMap(new TreeMap<>(perNnzCyclesByFormat));
        for (Map.Entry<String, Double> e : perNnzCyclesByFormat.entrySet()) {
            if (!(e.getValue() >= 0) || e.getValue().isInfinite()) {
                throw new SpecException("overheads: perNnzByFormat." + e.getKey() + " must not be negative, got " + e.getValue());
            }
        }
        if (!(launchSeconds >= 0) || !(perRowCycles >= 0) || !(perNnzCycles >= 0) || !(gatherCycles >= 0) || !(tileStepCycles >= 0)) {
            throw new SpecException("overheads must not be negative");
        }
        if (tensorTileRows <= 0 || tensorTileCols <= 0) throw new SpecException("overheads: tensor tile must be positive");
        if (!(denseEfficiency > 0 && denseEfficiency <= 1)) {
            throw new SpecException("overheads: denseEfficiency must be in (0, 1], got " + denseEfficiency);
        }
    }

    /** No per-format decode cycles (every format decodes at {@code perNnzCycles}), no fork/join, imbalance as modelled. */
    public KernelOverheads(double launchSeconds, double perRowCycles, double perNnzCycles, int tensorTileRows, int tensorTileCols,
                           double gatherCycles, double denseEfficiency, double tileStepCycles) {
        this(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, gatherCycles, denseEfficiency, tileStepCycles, Map.of(),
                0, 1);
    }

    /** The fixed cost of one call on {@code threads} threads: the launch and each further thread's fork/join. */
    public double launchSeconds(int threads) {
        return launchSeconds + forkJoinSeconds * Math.max(0, threads - 1);
    }

    /** The imbalance that shows in the time for a schedule whose slowest unit has {@code factor} x the mean work. */
    public double penalizedImbalance(double factor) {
        return 1 + imbalancePenalty * (factor - 1);
    }

    /** The decode cycles per index of the format named {@code format}: its own, else {@code perNnzCycles}. */
    public double perNnzCycles(String format) {
        Double own = perNnzCyclesByFormat.get(format);
        return own != null ? own : perNnzCycles;
    }

    public KernelOverheads withPerNnzCyclesByFormat(Map<String, Double> cycles) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, gatherCycles, denseEfficiency,
                tileStepCycles, cycles, forkJoinSeconds, imbalancePenalty);
    }

    /** The first model's parameters: no gather or K-step cost beyond the roofs, dense at the full peak. */
    public KernelOverheads(double launchSeconds, double perRowCycles, double perNnzCycles, int tensorTileRows, int tensorTileCols) {
        this(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, 0, 1, 0);
    }

    public KernelOverheads withGatherCycles(double cycles) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, cycles, denseEfficiency, tileStepCycles, perNnzCyclesByFormat,
                forkJoinSeconds, imbalancePenalty);
    }

    public KernelOverheads withDenseEfficiency(double fraction) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, gatherCycles, fraction, tileStepCycles, perNnzCyclesByFormat,
                forkJoinSeconds, imbalancePenalty);
    }

    public KernelOverheads withTileStepCycles(double cycles) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, gatherCycles, denseEfficiency, cycles, perNnzCyclesByFormat,
                forkJoinSeconds, imbalancePenalty);
    }
}
