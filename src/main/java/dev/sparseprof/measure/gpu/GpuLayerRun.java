package dev.sparseprof.measure.gpu;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code measure --device gpu}: the project's CUDA kernels on a model's own (pruned) layers, one
 * {@link GpuCase} per layer and format, the dense fp32 kernel always first on each layer (the
 * speedups). Formats by the measurements' names: {@code dense}, {@code dense-f16}, {@code csr},
 * {@code bsr4x4}, {@code 2:4} (the layer must hold a 2:4 pattern: {@code measure --nm 2:4}).
 */
public final class GpuLayerRun {
    /** The GPU kernel of each format name measure accepts with {@code --device gpu}. */
    private static final Map<String, GpuKernel> BY_FORMAT = new LinkedHashMap<>();

    static {
        for (GpuKernel k : GpuKernel.values()) BY_FORMAT.put(GpuMeasurementsJson.format(k), k);
    }

    /** One layer to measure, under the name the results carry, and the sparsity it was pruned to. */
    public record Layer(String name, MatrixView matrix, double sparsity) {}

    /** The cases measured and their results, in the same order. */
    public record Results(List<GpuCase> cases, List<GpuMeasurement> measurements) {}

    private GpuLayerRun() {}

    public static List<String> formats() {
        return List.copyOf(BY_FORMAT.keySet());
    }

    /** The kernels for the format names, dense first; an unknown name fails before any GPU work. */
    public static List<GpuKernel> kernels(List<String> formats) {
        List<GpuKernel> out = new ArrayList<>();
        out.add(GpuKernel.DENSE_TILED);
        for (String f : formats) {
            GpuKernel k = BY_FORMAT.get(f);
            if (k == null) throw new SparseprofException("--formats " + f + ": no GPU kernel (GPU formats: " + String.join(", ", formats()) + ")");
            if (!out.contains(k)) out.add(k);
        }
        return out;
    }

    public static Results run(GpuSpmmRunner runner, List<Layer> layers, List<String> formats, int batch, Consumer<String> progress) {
        List<GpuKernel> kernels = kernels(formats);
        List<GpuCase> cases = new ArrayList<>();
        List<GpuMeasurement> out = new ArrayList<>();
        for (Layer l : layers) {
            MatrixView v = l.matrix();
            float[] w = new float[Math.multiplyExact(v.rows(), v.cols())];
            for (int r = 0; r < v.rows(); r++) v.copyRow(r, w, r * v.cols());
            for (GpuKernel k : kernels) {
                GpuCase c = new GpuCase("measure-gpu", l.name(), v.rows(), v.cols(), batch, k, l.sparsity());
                progress.accept(c.name());
                cases.add(c);
                out.add(switch (k) {
                    case DENSE_TILED -> runner.denseFp32(l.name(), w, v.rows(), v.cols(), batch);
                    case DENSE_MMA_F16 -> runner.denseF16(l.name(), w, v.rows(), v.cols(), batch);
                    case SPARSE24_MMA -> runner.sparse24(l.name(), w, v.rows(), v.cols(), batch);
                    case CSR_ROWSPLIT -> runner.csr(l.name(), CsrMatrix.from(v), batch);
                    case BSR -> runner.bsr(l.name(), BsrMatrix.from(CsrMatrix.from(v), GpuCaseRunner.BSR_BLOCK), batch);
                });
            }
        }
        return new Results(cases, out);
    }
}
