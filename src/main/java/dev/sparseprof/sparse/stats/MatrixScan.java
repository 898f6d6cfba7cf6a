package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import dev.sparseprof.util.SparseprofException;
import java.util.List;

/**
 * Measures {@link MatrixStats} in one streaming pass over the rows of a {@link MatrixView}: each row
 * is copied once into a row buffer, turned into a non-zero bitmap with the Vector API, and every
 * statistic is counted from the bitmap. Memory is one row buffer per thread plus one int per row
 * (row lengths) and per column (column counts), never the whole matrix.
 *
 * <p>With {@code threads > 1} the rows are cut into ranges that start at multiples of every block
 * height, which the threads take in turn ({@link MatrixView#copyRow} and
 * {@link MatrixView#nonZeroBits} may be called from several threads), and the parts are merged; the
 * result does not depend on the thread count. {@link #ofAll} scans many matrices with one team.
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
        return ofAll(List.of(matrix), options, progress).get(0);
    }

    /**
     * The statistics of every matrix of {@code matrices}, in list order, from one scan by one team
     * of {@code options.threads()} threads that claim row ranges of about a million elements in
     * turn ({@link ScanTeam}); progress counts rows over all the matrices.
     */
    public static List<MatrixStats> ofAll(List<? extends MatrixView> matrices, ScanOptions options, Progress progress) {
        return ofAll(matrices, options, progress, RowTasks.TASK_ELEMENTS);
    }

    /** As {@link #ofAll(List, ScanOptions, Progress)} with tasks of about {@code taskElements} elements (tests cut small ones). */
    static List<MatrixStats> ofAll(List<? extends MatrixView> matrices, ScanOptions options, Progress progress, long taskElements) {
        long rows = 0;
        for (MatrixView matrix : matrices) {
            if (matrix.rows() < 0 || matrix.cols() < 0) {
                throw new SparseprofException("matrix scan: negative shape " + matrix.rows() + "x" + matrix.cols());
            }
            rows += matrix.rows();
        }
        ProgressCounter counter = new ProgressCounter(progress, rows);
        List<MatrixStats> stats = new ScanTeam(matrices, options, RowTasks.of(matrices, options, taskElements), counter).run();
        progress.update(rows, rows);
        return stats;
    }
}
