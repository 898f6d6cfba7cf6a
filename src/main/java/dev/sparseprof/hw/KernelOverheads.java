package dev.sparseprof.hw;

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
 */
public record KernelOverheads(double launchSeconds, double perRowCycles, double perNnzCycles,
                              int tensorTileRows, int tensorTileCols, double gatherCycles, double denseEfficiency,
                              double tileStepCycles) {
    public KernelOverheads {
        if (!(launchSeconds >= 0) || !(perRowCycles >= 0) || !(perNnzCycles >= 0) || !(gatherCycles >= 0) || !(tileStepCycles >= 0)) {
            throw new SpecException("overheads must not be negative");
        }
        if (tensorTileRows <= 0 || tensorTileCols <= 0) throw new SpecException("overheads: tensor tile must be positive");
        if (!(denseEfficiency > 0 && denseEfficiency <= 1)) {
            throw new SpecException("overheads: denseEfficiency must be in (0, 1], got " + denseEfficiency);
        }
    }

    /** The first model's parameters: no gather or K-step cost beyond the roofs, dense at the full peak. */
    public KernelOverheads(double launchSeconds, double perRowCycles, double perNnzCycles, int tensorTileRows, int tensorTileCols) {
        this(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, 0, 1, 0);
    }

    public KernelOverheads withGatherCycles(double cycles) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, cycles, denseEfficiency, tileStepCycles);
    }

    public KernelOverheads withDenseEfficiency(double fraction) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, gatherCycles, fraction, tileStepCycles);
    }

    public KernelOverheads withTileStepCycles(double cycles) {
        return new KernelOverheads(launchSeconds, perRowCycles, perNnzCycles, tensorTileRows, tensorTileCols, gatherCycles, denseEfficiency, cycles);
    }
}
