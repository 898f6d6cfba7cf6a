package dev.sparseprof.hw;

/**
 * Fixed costs the roofline does not see, as model parameters (defaults from the spec's
 * {@code overheads:} section, replaced by calibration): the launch of one kernel (GPU launch, CPU
 * fork/join), the per-row setup of a sparse kernel (row pointer read, accumulator init, store) and
 * the decode of one stored index (per non-zero or per 2:4 metadata group), both in clock cycles of
 * one core or SM. {@code tensorTileRows x tensorTileCols} is the output tile one SM computes in a
 * tensor-core GEMM; it sets the wave quantisation of dense and 2:4 GEMMs.
 */
public record KernelOverheads(double launchSeconds, double perRowCycles, double perNnzCycles,
                              int tensorTileRows, int tensorTileCols) {
    public KernelOverheads {
        if (!(launchSeconds >= 0) || !(perRowCycles >= 0) || !(perNnzCycles >= 0)) {
            throw new SpecException("overheads must not be negative");
        }
        if (tensorTileRows <= 0 || tensorTileCols <= 0) throw new SpecException("overheads: tensor tile must be positive");
    }
}
