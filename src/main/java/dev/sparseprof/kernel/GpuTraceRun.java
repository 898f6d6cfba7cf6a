package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.trace.TraceSink;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.EnumMap;
import java.util.Map;

/** {@link GpuTraces} on one matrix end to end: lays the arrays out and streams one sink per SM. */
public final class GpuTraceRun {
    private GpuTraceRun() {}

    /** {@code format} is {@code csr} (row-split SpMM) or {@code dense} (tiled GEMM). */
    public static void trace(String format, MatrixView matrix, GpuGrid grid, TracedRun.Settings settings, TraceSink[] perSm) {
        int m = matrix.rows();
        int k = matrix.cols();
        int n = settings.batch();
        Map<ArrayRole, Long> sizes = new EnumMap<>(ArrayRole.class);
        sizes.put(ArrayRole.B_GATHER, 4L * k * n);
        sizes.put(ArrayRole.C_SCATTER, 4L * m * n);
        switch (format) {
            case "csr" -> {
                RowSlices a = RowSlices.of(CsrMatrix.from(matrix));
                sizes.putAll(a.arrayBytes());
                GpuTraces.csrRowSplit(a, n, grid, layout(settings, sizes), perSm);
            }
            case "dense" -> {
                sizes.put(ArrayRole.DENSE_A, 4L * m * k);
                GpuTraces.denseTiled(m, k, n, grid, layout(settings, sizes), perSm);
            }
            default -> throw new SparseprofException("GPU-style traces exist for csr and dense, not '" + format + "'");
        }
    }

    private static ArrayLayout layout(TracedRun.Settings settings, Map<ArrayRole, Long> sizes) {
        return ArrayLayout.sequential(settings.baseAddress(), settings.alignmentBytes(), sizes, Float.BYTES);
    }
}
