package dev.sparseprof.perfmodel;

/**
 * Why a kernel falls short of the layer's FLOP reduction, in time. {@code idealSeconds} is the dense
 * time divided by the theoretical speedup (dense FLOPs / useful sparse FLOPs); the parts are what
 * the kernel costs beyond that, so
 * {@code ideal + roof + indexMetadata + gatherScatterMisses + loadImbalance + fixedOverheads}
 * equals the predicted time exactly. The dense GEMM's time is its roof part plus its fixed
 * overheads, and each is scaled by the FLOP ratio separately:
 * <ul>
 * <li>{@code fixedOverheads}: the kernel's launch, per-row and per-index costs minus the dense
 *     launch scaled by the FLOP ratio (non-negative: a sparse kernel launches too);
 * <li>{@code roof}: the kernel's own roofline with values only, perfect reuse and even work
 *     (another compute unit, a memory-bound roof where dense was compute-bound) minus the dense
 *     roof scaled by the FLOP ratio. The one part that may be negative: a format can beat
 *     proportional scaling (the dense GEMM's own wave quantisation or misses are in its roof);
 * <li>{@code indexMetadata}: index and metadata bytes; {@code gatherScatterMisses}: cache misses
 *     beyond the compulsory ones; {@code loadImbalance}: the slowest core/SM (each the increment of
 *     the prediction as that cost is switched on, so non-negative).
 * </ul>
 * The dense kernel is the reference: on a pruned layer its whole gap is {@code roof} (it multiplies
 * the zeros), on a dense layer every part is 0.
 *
 * <p>On a GPU ({@code netCredit}) no part is negative, by construction: the dense roof holds the dense
 * GEMM's wave quantisation (a few CTA tiles over 108-132 SMs at small N, where the balanced sparse
 * roof beats the dense roof scaled by the FLOP ratio), and that credit is the dense schedule's
 * imbalance, not a cost of the kernel; so a negative part is set to 0 and its amount taken off the
 * kernel's other parts in the order {@code loadImbalance}, {@code fixedOverheads},
 * {@code gatherScatterMisses}, {@code indexMetadata}, {@code roof}. The sum still equals the
 * prediction; the parts stay non-negative whenever the prediction is at or above the ideal (the
 * FLOP bound, an invariant of its own). On a CPU the same holds and the credit is netted the same
 * way: the dense roof holds the dense micro-kernel's own shortfall from the peak ({@code
 * denseEfficiency}, or the ECM model's probed cycles per dense FMA against the sparse bodies'), so
 * the sparse roof scaled by the FLOP ratio could come out below it where a sparse kernel is
 * compute-bound; that is the dense kernel's inefficiency, not a cost of the sparse one.
 */
public record GapBreakdown(double idealSeconds, double roofSeconds, double indexMetadataSeconds,
                           double gatherScatterMissSeconds, double loadImbalanceSeconds, double fixedOverheadSeconds) {
    public static final String[] PART_NAMES = {"roof", "indexMetadata", "gatherScatterMisses", "loadImbalance", "fixedOverheads"};

    /**
     * The breakdown from the predictions with costs switched on one at a time ({@code none}: values
     * only, no overheads; then index bytes, misses, imbalance; {@code all} adds the overheads).
     */
    static GapBreakdown of(Workload w, boolean denseKernel, Prediction dense, Prediction none, Prediction withIndex,
                           Prediction withMisses, Prediction withImbalance, Prediction all, boolean netCredit) {
        double ratio = w.nnz() == 0 ? 0 : w.sparseFlops() / w.denseFlops();
        double ideal = dense.seconds() * ratio;
        if (denseKernel) return new GapBreakdown(ideal, all.seconds() - ideal, 0, 0, 0, 0);
        double denseRoof = dense.seconds() - dense.overheadSeconds();
        double[] p = {none.seconds() - denseRoof * ratio, withIndex.seconds() - none.seconds(),
            withMisses.seconds() - withIndex.seconds(), withImbalance.seconds() - withMisses.seconds(),
            all.seconds() - withImbalance.seconds() - dense.overheadSeconds() * ratio};
        if (netCredit) netNegativeParts(p);
        return new GapBreakdown(ideal, p[0], p[1], p[2], p[3], p[4]);
    }

    /** The order in which a credit is taken off the parts (indices into {@link #parts()}). */
    private static final int[] NETTING_ORDER = {3, 4, 2, 1, 0};

    /** Sets each negative part to 0 and takes the sum of them off the positive parts, in {@link #NETTING_ORDER}. */
    static void netNegativeParts(double[] p) {
        double credit = 0;
        for (int i = 0; i < p.length; i++) {
            if (p[i] < 0) {
                credit -= p[i];
                p[i] = 0;
            }
        }
        for (int j = 0; j < NETTING_ORDER.length && credit > 0; j++) {
            int i = NETTING_ORDER[j];
            double take = Math.min(p[i], credit);
            p[i] -= take;
            credit -= take;
        }
        if (credit > 0) p[0] -= credit; // below the ideal (a broken FLOP bound): left visible in the roof part
    }

    public double predictedSeconds() {
        return idealSeconds + roofSeconds + indexMetadataSeconds + gatherScatterMissSeconds + loadImbalanceSeconds + fixedOverheadSeconds;
    }

    public double gapSeconds() {
        return predictedSeconds() - idealSeconds;
    }

    public double[] parts() {
        return new double[] {roofSeconds, indexMetadataSeconds, gatherScatterMissSeconds, loadImbalanceSeconds, fixedOverheadSeconds};
    }

    /** The index of the largest part (by value: the biggest cost), or -1 when no part is positive. */
    public int largestPart() {
        double[] p = parts();
        int best = -1;
        for (int i = 0; i < p.length; i++) if (p[i] > 0 && (best < 0 || p[i] > p[best])) best = i;
        return best;
    }
}
