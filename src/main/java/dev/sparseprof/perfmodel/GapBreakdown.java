package dev.sparseprof.perfmodel;

/**
 * Why a sparse kernel falls short of its FLOP reduction: {@code idealSeconds} is the dense time
 * divided by the theoretical speedup (dense FLOPs / useful sparse FLOPs); the parts are the
 * increments of the prediction as costs are switched on one by one, so
 * {@code ideal + roof + indexMetadata + gatherScatterMisses + loadImbalance + fixedOverheads}
 * equals the predicted time exactly. {@code roof}: the kernel's own roofline with compulsory
 * value traffic only (another compute unit, a memory-bound roof where dense was compute-bound;
 * negative when the format beats proportional scaling); {@code indexMetadata}: index and metadata
 * bytes; {@code gatherScatterMisses}: cache misses beyond the compulsory ones; {@code loadImbalance}:
 * the slowest core/SM; {@code fixedOverheads}: launch, per-row and per-index costs.
 */
public record GapBreakdown(double idealSeconds, double roofSeconds, double indexMetadataSeconds,
                           double gatherScatterMissSeconds, double loadImbalanceSeconds, double fixedOverheadSeconds) {
    public static final String[] PART_NAMES = {"roof", "indexMetadata", "gatherScatterMisses", "loadImbalance", "fixedOverheads"};

    public double predictedSeconds() {
        return idealSeconds + roofSeconds + indexMetadataSeconds + gatherScatterMissSeconds + loadImbalanceSeconds + fixedOverheadSeconds;
    }

    public double[] parts() {
        return new double[] {roofSeconds, indexMetadataSeconds, gatherScatterMissSeconds, loadImbalanceSeconds, fixedOverheadSeconds};
    }
}
