package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.MatrixView;
import java.util.List;

/**
 * A scan's work cut into tasks: consecutive row ranges of each matrix, in matrix order and row
 * order, that threads claim one at a time. Every range starts at a multiple of every block height
 * (so a band never spans two tasks) and holds about {@value #TASK_ELEMENTS} elements, a few
 * hundred microseconds of work: a thread that finishes early takes the next task instead of
 * waiting for a fixed share to end, and the threads read neighbouring ranges, close to one
 * sequential reader for the kernel's readahead. (On the Zen 5 VM the whole {@code profile} of a
 * 13.5 GB checkpoint took the same with tasks of 1 M, 16 M elements or whole matrices: 1.66-1.87 s
 * in four alternated rounds.) With one thread, or block heights whose least common multiple
 * passes 2^20 rows, a matrix is one task.
 */
final class RowTasks {
    /** Elements per task: 2 MiB of a 16-bit model, one huge page. */
    static final long TASK_ELEMENTS = 1L << 20;
    private final int[] matrix;
    private final int[] from;
    private final int[] to;

    private RowTasks(int[] matrix, int[] from, int[] to) {
        this.matrix = matrix;
        this.from = from;
        this.to = to;
    }

    /** Tasks of about {@code taskElements} elements each ({@link #TASK_ELEMENTS} outside tests). */
    static RowTasks of(List<? extends MatrixView> matrices, ScanOptions options, long taskElements) {
        int alignment = bandAlignment(options);
        int[] step = new int[matrices.size()];
        int count = 0;
        for (int m = 0; m < step.length; m++) {
            MatrixView v = matrices.get(m);
            step[m] = rowsPerTask(v.rows(), v.cols(), alignment, options.threads(), taskElements);
            if (v.rows() > 0) count += (v.rows() - 1) / step[m] + 1;
        }
        int[] matrix = new int[count];
        int[] from = new int[count];
        int[] to = new int[count];
        int t = 0;
        for (int m = 0; m < step.length; m++) {
            int rows = matrices.get(m).rows();
            for (long r = 0; r < rows; r += step[m], t++) {
                matrix[t] = m;
                from[t] = (int) r;
                to[t] = (int) Math.min(rows, r + step[m]);
            }
        }
        return new RowTasks(matrix, from, to);
    }

    /** Rows per task of a {@code rows x cols} matrix: whole bands of {@code alignment} rows, at least one. */
    private static int rowsPerTask(int rows, int cols, int alignment, int threads, long taskElements) {
        if (threads == 1 || alignment == Integer.MAX_VALUE || rows <= alignment) return Math.max(1, rows);
        long bands = Math.max(1, taskElements / ((long) Math.max(1, cols) * alignment));
        return (int) Math.min(rows, bands * alignment);
    }

    int size() {
        return matrix.length;
    }

    int matrix(int task) {
        return matrix[task];
    }

    int from(int task) {
        return from[task];
    }

    int to(int task) {
        return to[task];
    }

    /** Least common multiple of the block heights, or {@code Integer.MAX_VALUE} past 2^20. */
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
}
