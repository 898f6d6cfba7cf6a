package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.MatrixView;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

/**
 * A kernel's traced twin on one matrix, end to end: converts the matrix, fills B with seeded
 * random values, lays A's arrays, B, C and the per-thread scratch out one after another on
 * {@code alignmentBytes} boundaries from {@code baseAddress}, and pushes thread t's accesses into
 * {@code sinks[t]}.
 */
public final class TracedRun {
    /** Where the arrays go and how the work is split. */
    public record Settings(int batch, int threads, Partition partition, long baseAddress, int alignmentBytes) {}

    private TracedRun() {}

    public static <A> ArrayLayout trace(SpmmKernel<A> kernel, MatrixView matrix, Settings settings, TraceSink[] sinks) {
        A a = kernel.prepare(matrix);
        int n = settings.batch();
        SpmmPlan<A> plan = SpmmPlan.of(kernel, a, n, settings.partition(), settings.threads());
        int k = kernel.cols(a);
        int m = kernel.rows(a);
        Map<ArrayRole, Long> sizes = new EnumMap<>(ArrayRole.class);
        sizes.putAll(kernel.arrayBytes(a));
        sizes.put(ArrayRole.B_GATHER, 4L * k * n);
        sizes.put(ArrayRole.C_SCATTER, 4L * m * n);
        ArrayLayout layout = ArrayLayout.sequential(settings.baseAddress(), settings.alignmentBytes(), sizes, kernel.valueBytes());
        float[] b = new float[Math.multiplyExact(k, n)];
        Random rnd = new Random(42);
        for (int i = 0; i < b.length; i++) b[i] = rnd.nextFloat() * 2f - 1f;
        plan.trace(b, new float[Math.multiplyExact(m, n)], layout, sinks);
        return layout;
    }
}
