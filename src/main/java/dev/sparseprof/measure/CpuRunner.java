package dev.sparseprof.measure;

import dev.sparseprof.kernel.Partition;
import dev.sparseprof.kernel.SpmmKernel;
import dev.sparseprof.kernel.SpmmPlan;
import dev.sparseprof.kernel.WorkerPool;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.Random;

/**
 * Measures one kernel on one matrix on the CPU: converts the matrix to the kernel's format,
 * fills B with random values, plans, times, and turns the times into a {@link Measurement}
 * (GFLOP/s of useful work, {@code 2 * nnz * N} for sparse formats, whose padding is overhead, and
 * {@code 2 * M * K * N} for dense; effective GB/s from the bytes of the format plus B plus C, each
 * counted once).
 */
public final class CpuRunner {
    /** What to measure besides the kernel: the layer's name, N, threads and how to split. */
    public record Request(String layer, int batch, int threads, Partition partition, TimingConfig timing) {}

    private CpuRunner() {}

    public static <A> Measurement measure(SpmmKernel<A> kernel, MatrixView matrix, Request request, WorkerPool pool) {
        A a;
        try {
            a = kernel.prepare(matrix);
        } catch (SparseprofException e) {
            throw new SparseprofException("layer '" + request.layer() + "': " + e.getMessage());
        }
        int n = request.batch();
        SpmmPlan<A> plan = SpmmPlan.of(kernel, a, n, request.partition(), request.threads());
        int k = kernel.cols(a);
        int m = kernel.rows(a);
        float[] b = randomB(k, n);
        float[] c = new float[Math.multiplyExact(m, n)];
        Timing t = TimingHarness.time(plan, b, c, pool, request.timing());
        long nonZeros = nonZeros(matrix);
        // useful work: the matrix's non-zeros for sparse formats (padding is overhead), every entry for dense
        long workEntries = kernel.name().equals("dense") ? kernel.storedEntries(a) : nonZeros;
        long bytes = kernel.formatBytes(a) + 4L * k * n + 4L * m * n;
        double sparsity = 1.0 - (double) nonZeros / ((double) m * k);
        return new Measurement(request.layer(), kernel.name(), n, request.threads(), request.partition().name(), m, k, nonZeros,
                sparsity, t, 2.0 * workEntries * n / t.medianSeconds() * 1e-9, bytes / t.medianSeconds() * 1e-9, Double.NaN);
    }

    /** The matrix's real non-zeros (the dense kernel stores all entries, its layer is still sparse). */
    private static long nonZeros(MatrixView matrix) {
        float[] row = new float[matrix.cols()];
        long count = 0;
        for (int r = 0; r < matrix.rows(); r++) {
            matrix.copyRow(r, row, 0);
            for (float v : row) if (v != 0f) count++;
        }
        return count;
    }

    private static float[] randomB(int k, int n) {
        Random rnd = new Random(42);
        float[] b = new float[Math.multiplyExact(k, n)];
        for (int i = 0; i < b.length; i++) b[i] = rnd.nextFloat() * 2f - 1f;
        return b;
    }
}
