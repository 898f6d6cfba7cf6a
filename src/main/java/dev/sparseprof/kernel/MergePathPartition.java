package dev.sparseprof.kernel;

/**
 * Merge-path split (Merrill &amp; Garland, "Merge-based parallel sparse matrix-vector
 * multiplication", SC16): the merge of the row ends {@code work[1..rows]} with the entry indices
 * {@code 0..total-1} is a path of {@code rows + total} steps; each thread takes an equal share of
 * steps, so rows and entries are balanced together and a long row is cut between threads.
 */
public final class MergePathPartition implements Partition {
    @Override public String name() { return "merge"; }

    @Override public boolean splitsRows() { return true; }

    @Override
    public WorkRange[] split(int[] work, int parts) {
        int rows = work.length - 1;
        long pathLength = (long) rows + work[rows];
        WorkRange[] out = new WorkRange[parts];
        int row = 0;
        int nz = 0;
        for (int t = 0; t < parts; t++) {
            long diagonal = pathLength * (t + 1) / parts;
            int endRow = t == parts - 1 ? rows : pathRow(work, diagonal);
            int endNz = t == parts - 1 ? work[rows] : (int) (diagonal - endRow);
            out[t] = new WorkRange(row, nz, endRow, endNz);
            row = endRow;
            nz = endNz;
        }
        return out;
    }

    /**
     * The number of rows completed at path step {@code diagonal}: the largest {@code i} with
     * {@code work[i] <= diagonal - i} (a row end is consumed before the entry of the same index).
     */
    private static int pathRow(int[] work, long diagonal) {
        int rows = work.length - 1;
        int lo = (int) Math.max(0, diagonal - work[rows]);
        int hi = (int) Math.min(rows, diagonal);
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (work[mid] <= diagonal - mid) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }
}
