package dev.sparseprof.bench;

import dev.sparseprof.kernel.KernelVectors;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.probe.KernelRateProbe;
import dev.sparseprof.util.MatrixView;
import java.util.Locale;

/**
 * Does csr's row body cost more per entry on long rows? (docs/calibration.md, "The row-length
 * question"). At N = {@code VECTORS} vectors of the JVM's preferred width, on 1 pinned thread, the
 * csr kernel runs on {@code ROWS} rows of about L entries (each row's length drawn in
 * [0.75 L, 1.25 L], columns spread evenly over K, as {@code calibrate --probe}'s row-body matrices
 * are) and on their first half; the difference over the rows apart is the time of a row of that
 * length, the call's fixed costs cancelled. B (K x N fp32) stays in L1d; A streams. Each call is
 * the lower quartile of 3000 back-to-back calls after a warm-up, each length timed in turn within
 * one JVM, {@code REPS} times over, so the lengths are compared side by side.
 * <pre>java ... dev.sparseprof.bench.RowLengthSweep VECTORS K ROWS REPS</pre>
 * Prints one line per length and repetition: ns per row and per entry (the row's fixed work in it).
 */
public final class RowLengthSweep {
    private RowLengthSweep() {}

    public static void main(String[] args) {
        int vectors = Integer.parseInt(args[0]);
        int k = Integer.parseInt(args[1]);
        int rows = Integer.parseInt(args[2]);
        int reps = Integer.parseInt(args[3]);
        int n = vectors * KernelVectors.FLOATS.length();
        try (WorkerPool one = WorkerPool.pinned(1)) {
            for (int rep = 0; rep < reps; rep++) {
                for (int len : new int[] {22, 64, 128, 192}) {
                    if (len * 5 / 4 > k) continue;
                    MatrixView m = KernelRateProbe.variableRows(rows, k, len - len / 4, len + len / 4);
                    double d = seconds(m, n, one) - seconds(KernelRateProbe.firstRows(m, rows / 2), n, one);
                    long entries = KernelRateProbe.entries(m, rows / 2, rows);
                    System.out.printf(Locale.ROOT, "%d-bit N=%d (%d vectors) K=%d rows of ~%d entries: %.1f ns per row, %.3f ns per entry%n",
                            KernelVectors.FLOATS.vectorBitSize(), n, vectors, k, len, d / (rows - rows / 2) * 1e9, d / entries * 1e9);
                }
            }
        }
    }

    private static double seconds(MatrixView a, int n, WorkerPool pool) {
        return CsrCalls.seconds(a, n, pool, 3000, 0.25);
    }
}
