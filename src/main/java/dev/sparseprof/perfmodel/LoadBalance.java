package dev.sparseprof.perfmodel;

import dev.sparseprof.perfmodel.gpu.SmSchedule;
import dev.sparseprof.sparse.stats.Lengths;
import java.util.List;

/**
 * Load-balance models from a layer's real row lengths. The work of a row is its non-zeros times
 * its column tiles plus one (the row's fixed part), so empty rows still cost something.
 *
 * <p>CPU (threads over rows): {@code static-rows} gives each thread an equal count of contiguous
 * rows; {@code nnz-balanced} cuts contiguous rows so each thread's work is as close as possible
 * to the mean (a row is never split); {@code merge-path} splits rows and non-zeros together
 * (Merrill and Garland, SC16), perfectly balanced up to one unit. GPU (warp per row and column
 * tile, {@code warpsPerBlock} warps per thread block, blocks handed to whichever SM frees first):
 * the busiest SM's work over the mean, which holds both the variation of row lengths and the
 * last-wave tail. Tensor-core GEMMs: tile waves, {@code ceil(tiles / SMs) x SMs / tiles}.
 */
public final class LoadBalance {
    public static final int WARPS_PER_BLOCK = 4;

    private LoadBalance() {}

    public static List<Balance> cpuSchedules(Lengths rows, int columnTiles, int threads) {
        return List.of(staticRows(rows, columnTiles, threads), nnzBalanced(rows, columnTiles, threads),
                mergePath(rows, columnTiles, threads));
    }

    public static Balance staticRows(Lengths rows, int columnTiles, int threads) {
        int m = rows.count();
        double max = 0;
        double total = 0;
        for (int t = 0; t < threads; t++) {
            int begin = (int) ((long) m * t / threads);
            int end = (int) ((long) m * (t + 1) / threads);
            double w = 0;
            for (int r = begin; r < end; r++) w += work(rows, r, columnTiles);
            max = Math.max(max, w);
            total += w;
        }
        return Balance.of("static-rows", max, total / threads);
    }

    public static Balance nnzBalanced(Lengths rows, int columnTiles, int threads) {
        int m = rows.count();
        double total = 0;
        for (int r = 0; r < m; r++) total += work(rows, r, columnTiles);
        double target = total / threads;
        double max = 0;
        double current = 0;
        int thread = 0;
        for (int r = 0; r < m; r++) {
            double w = work(rows, r, columnTiles);
            // Close this thread's range before the row when that lands nearer the target.
            if (thread < threads - 1 && current > 0 && current + w - target > target - current) {
                max = Math.max(max, current);
                current = 0;
                thread++;
            }
            current += w;
        }
        max = Math.max(max, current);
        return Balance.of("nnz-balanced", max, target);
    }

    public static Balance mergePath(Lengths rows, int columnTiles, int threads) {
        double total = 0;
        for (int r = 0; r < rows.count(); r++) total += work(rows, r, columnTiles);
        double mean = total / threads;
        return Balance.of("merge-path", Math.ceil(mean), mean);
    }

    public static Balance gpuRowSplit(Lengths rows, int columnTiles, int sms) {
        int m = rows.count();
        long tasks = (long) m * columnTiles;
        long blocks = (tasks + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
        SmSchedule schedule = new SmSchedule(sms);
        for (long b = 0; b < blocks; b++) {
            double w = 0;
            for (long t = b * WARPS_PER_BLOCK; t < Math.min(tasks, (b + 1) * WARPS_PER_BLOCK); t++) {
                w += rows.get((int) (t % m)) + 1; // task t: row t % m of column tile t / m
            }
            schedule.deal(w);
        }
        return schedule.balance("warp-per-row, " + WARPS_PER_BLOCK + " warps/block over " + sms + " SMs", 0);
    }

    public static Balance tileWaves(long tiles, int units) {
        long waves = (tiles + units - 1) / units;
        return Balance.of(tiles + " tiles in " + waves + " wave(s) over " + units, waves, (double) tiles / units);
    }

    private static double work(Lengths rows, int r, int columnTiles) {
        return (double) rows.get(r) * columnTiles + 1;
    }
}
