package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures {@link MatrixStats} in one streaming pass over the rows of a {@link MatrixView}: each row
 * is copied once into a row buffer, turned into a non-zero bitmap with the Vector API, and every
 * statistic is counted from the bitmap. Memory is one row buffer per thread plus one int per row
 * (row lengths) and per column (column counts), never the whole matrix.
 *
 * <p>With {@code threads > 1} the rows are split into ranges that start at multiples of every block
 * height, scanned concurrently ({@link MatrixView#copyRow} may be called from several threads), and
 * merged; the result does not depend on the thread count.
 *
 * <p>Progress is reported in rows, every 1024 rows of a thread and once at the end; the scan never
 * calls {@link Progress#finish()}, since the caller owns the display (one bar over many layers).
 */
public final class MatrixScan {
    private MatrixScan() {}

    /** The default statistics ({@link ScanOptions#DEFAULT}). */
    public static MatrixStats of(MatrixView matrix) {
        return of(matrix, ScanOptions.DEFAULT, Progress.NONE);
    }

    /** The default statistics of a row-major array. */
    public static MatrixStats of(int rows, int cols, float[] rowMajor) {
        return of(MatrixView.of(rows, cols, rowMajor));
    }

    public static MatrixStats of(MatrixView matrix, ScanOptions options) {
        return of(matrix, options, Progress.NONE);
    }

    public static MatrixStats of(MatrixView matrix, ScanOptions options, Progress progress) {
        int rows = matrix.rows();
        int cols = matrix.cols();
        if (rows < 0 || cols < 0) throw new SparseprofException("matrix scan: negative shape " + rows + "x" + cols);
        int[] rowLengths = new int[rows];
        ProgressCounter counter = new ProgressCounter(progress, rows);
        List<int[]> ranges = split(rows, bandAlignment(options), options.threads());
        List<RowRangeScan> parts = new ArrayList<>(ranges.size());
        for (int i = 0; i < ranges.size(); i++) parts.add(new RowRangeScan(rows, cols, rowLengths, options));
        if (parts.size() == 1) {
            parts.get(0).scan(matrix, 0, rows, counter);
        } else {
            runConcurrently(matrix, ranges, parts, counter);
        }
        RowRangeScan total = parts.get(0);
        for (int i = 1; i < parts.size(); i++) total.merge(parts.get(i));
        progress.update(rows, rows);
        return total.result(rows);
    }

    private static void runConcurrently(MatrixView matrix, List<int[]> ranges, List<RowRangeScan> parts, ProgressCounter counter) {
        Thread[] workers = new Thread[parts.size()];
        Throwable[] failures = new Throwable[parts.size()];
        for (int i = 0; i < workers.length; i++) {
            int index = i;
            workers[i] = Thread.ofPlatform().name("stats-scan-" + i).start(() -> {
                try {
                    parts.get(index).scan(matrix, ranges.get(index)[0], ranges.get(index)[1], counter);
                } catch (Throwable t) {
                    failures[index] = t;
                }
            });
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SparseprofException("matrix scan interrupted");
            }
        }
        for (Throwable failure : failures) {
            if (failure instanceof RuntimeException re) throw re;
            if (failure instanceof Error err) throw err;
        }
    }

    /** Least common multiple of the block heights, so every range starts at a band boundary. */
    private static int bandAlignment(ScanOptions options) {
        long lcm = 1;
        for (BlockShape shape : options.blocks()) {
            long r = shape.rows();
            long g = gcd(lcm, r);
            lcm = lcm / g * r;
            if (lcm > (1 << 20)) return Integer.MAX_VALUE;
        }
        return (int) lcm;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    private static List<int[]> split(int rows, int alignment, int threads) {
        List<int[]> ranges = new ArrayList<>();
        long bands = alignment == Integer.MAX_VALUE ? 1 : (rows + (long) alignment - 1) / alignment;
        int parts = (int) Math.max(1, Math.min(threads, bands));
        for (int i = 0; i < parts; i++) {
            long from = Math.min(rows, bands * i / parts * alignment);
            long to = Math.min(rows, bands * (i + 1) / parts * alignment);
            if (i == parts - 1) to = rows;
            ranges.add(new int[] {(int) from, (int) to});
        }
        return ranges;
    }
}
