package dev.sparseprof.kernel;

/** Equal numbers of rows per thread, whatever their lengths: the simplest split. */
public final class StaticRowsPartition implements Partition {
    @Override public String name() { return "static"; }

    @Override public boolean splitsRows() { return false; }

    @Override
    public WorkRange[] split(int[] work, int parts) {
        int rows = work.length - 1;
        WorkRange[] out = new WorkRange[parts];
        for (int t = 0; t < parts; t++) {
            int from = (int) ((long) rows * t / parts);
            int to = (int) ((long) rows * (t + 1) / parts);
            out[t] = WorkRange.wholeRows(work, from, to);
        }
        return out;
    }
}
