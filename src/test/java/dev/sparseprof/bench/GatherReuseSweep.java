package dev.sparseprof.bench;

import dev.sparseprof.kernel.KernelVectors;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.measure.probe.KernelRateProbe;
import dev.sparseprof.memsim.RowGatherReuse;
import dev.sparseprof.util.MatrixView;
import java.util.Locale;
import java.util.Random;

/**
 * What the L1 keeps of csr's row gathers from a B in L2 (docs/calibration.md, "What the L1 keeps of
 * a row gather"): at N = {@code VECTORS} vectors, 1 pinned thread, the csr kernel on {@code ROWS}
 * rows of about L entries at random distinct columns of a K-row B ({@code K x N} fp32 past L1d, in
 * L2), and on their first half; the difference over the rows apart is their time, the call's fixed
 * costs (B's copy among them) cancelled. Beside each length: the share of B-row requests that
 * {@link RowGatherReuse#hitShare} has the L1 serve (what the model charges L2 bytes by), so the
 * measured ns per entry can be read against the model's cliff where a row's sweep outgrows L1d.
 * Lengths are timed in turn within one JVM, {@code REPS} times over. With a sixth argument L, the
 * row length stays L and K runs over 2L..16L instead (the share of B a row touches, and with it the
 * model's hit share, falls as K grows while the sweep stays the same).
 * <pre>java ... dev.sparseprof.bench.GatherReuseSweep VECTORS K ROWS REPS L1D_KIB [L]</pre>
 */
public final class GatherReuseSweep {
    private GatherReuseSweep() {}

    public static void main(String[] args) {
        int vectors = Integer.parseInt(args[0]);
        int k = Integer.parseInt(args[1]);
        int rows = Integer.parseInt(args[2]);
        int reps = Integer.parseInt(args[3]);
        long l1 = Long.parseLong(args[4]) * 1024;
        int n = vectors * KernelVectors.FLOATS.length();
        double rowBytes = n * (double) Float.BYTES;
        int fixed = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        int[] lengths = fixed > 0 ? new int[] {fixed, fixed, fixed, fixed, fixed} : new int[] {24, 48, 72, 96, 128, 160, 192, 256};
        try (WorkerPool one = WorkerPool.pinned(1)) {
            for (int rep = 0; rep < reps; rep++) {
                for (int i = 0; i < lengths.length; i++) {
                    int len = lengths[i];
                    if (fixed > 0) k = fixed * (2 << i);
                    if (len * 5 / 4 > k) continue;
                    MatrixView m = randomRows(rows, k, len - len / 4, len + len / 4);
                    double d = seconds(m, n, one) - seconds(KernelRateProbe.firstRows(m, rows / 2), n, one);
                    long entries = KernelRateProbe.entries(m, rows / 2, rows);
                    double hit = RowGatherReuse.hitShare(l1, k * rowBytes, len * rowBytes, (double) len / k);
                    System.out.printf(Locale.ROOT, "%d-bit N=%d K=%d rows of ~%d entries (sweep %.1f KiB): %.3f ns per entry, model L1 hit share %.3f%n",
                            KernelVectors.FLOATS.vectorBitSize(), n, k, len, len * rowBytes / 1024, d / entries * 1e9, hit);
                }
            }
        }
    }

    /** Rows of minLen..maxLen entries at random distinct columns (seeded by the lengths). */
    static MatrixView randomRows(int rows, int k, int minLen, int maxLen) {
        float[] a = new float[rows * k];
        Random rnd = new Random(31L * minLen + maxLen);
        for (int r = 0; r < rows; r++) {
            int len = minLen + rnd.nextInt(maxLen - minLen + 1);
            for (int placed = 0; placed < len; ) {
                int c = rnd.nextInt(k);
                if (a[r * k + c] == 0) a[r * k + c] = 0.5f + placed++;
            }
        }
        return MatrixView.of(rows, k, a);
    }

    private static double seconds(MatrixView a, int n, WorkerPool pool) {
        return CsrCalls.seconds(a, n, pool, 400, 0.5);
    }
}
