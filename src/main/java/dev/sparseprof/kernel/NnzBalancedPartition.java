package dev.sparseprof.kernel;

/**
 * Whole rows, cut where the running work first reaches {@code t/parts} of the total (binary search
 * on the prefix): balanced unless one row alone outweighs a share.
 */
public final class NnzBalancedPartition implements Partition {
    @Override public String name() { return "nnz"; }

    @Override public boolean splitsRows() { return false; }

    @Override
    public WorkRange[] split(int[] work, int parts) {
        int rows = work.length - 1;
        long total = work[rows];
        WorkRange[] out = new WorkRange[parts];
        int from = 0;
        for (int t = 0; t < parts; t++) {
            int to = t == parts - 1 ? rows : firstRowReaching(work, total * (t + 1) / parts, from);
            out[t] = WorkRange.wholeRows(work, from, to);
            from = to;
        }
        return out;
    }

    /** The smallest row boundary {@code r >= lo} with {@code work[r] >= target}. */
    private static int firstRowReaching(int[] work, long target, int lo) {
        int hi = work.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (work[mid] < target) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
