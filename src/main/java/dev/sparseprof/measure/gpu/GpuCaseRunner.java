package dev.sparseprof.measure.gpu;

import dev.sparseprof.sparse.BsrMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.sparse.prune.LayerWeights;
import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.prune.Pruner;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.MatrixView;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Runs {@link GpuCase}s on a {@link GpuSpmmRunner}: builds each case's synthetic weight (normal,
 * sigma 0.05, seeded by the case's shape), prunes it with {@code sparse.prune} as the kernel needs,
 * and times it.
 */
public final class GpuCaseRunner {
    /** BSR cases use 4 x 4 blocks (block pruning ranks the tiles by L2 norm). */
    public static final BlockShape BSR_BLOCK = new BlockShape(4, 4);

    private GpuCaseRunner() {}

    public static List<GpuMeasurement> run(GpuSpmmRunner runner, List<GpuCase> cases, Consumer<String> progress) {
        List<GpuMeasurement> out = new ArrayList<>(cases.size());
        for (GpuCase c : cases) {
            progress.accept(c.name());
            float[] w = weights(c.rows(), c.cols());
            out.add(switch (c.kernel()) {
                case DENSE_TILED -> runner.denseFp32(c.name(), w, c.rows(), c.cols(), c.batch());
                case DENSE_MMA_F16 -> runner.denseF16(c.name(), w, c.rows(), c.cols(), c.batch());
                case SPARSE24_MMA -> runner.sparse24(c.name(), w, c.rows(), c.cols(), c.batch());
                case CSR_ROWSPLIT -> runner.csr(c.name(), prune(w, c, new PruneSpec.Magnitude(c.sparsity(), PruneScope.LAYER)), c.batch());
                case BSR -> runner.bsr(c.name(), BsrMatrix.from(prune(w, c, new PruneSpec.Block(BSR_BLOCK, c.sparsity())), BSR_BLOCK),
                        c.batch());
            });
        }
        return out;
    }

    static float[] weights(int rows, int cols) {
        SplittableRandom rnd = new SplittableRandom(31L * rows + cols);
        float[] w = new float[rows * cols];
        for (int i = 0; i < w.length; i++) w[i] = (float) (0.05 * gaussian(rnd));
        return w;
    }

    private static double gaussian(SplittableRandom rnd) {
        double u = 1.0 - rnd.nextDouble();
        double v = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    private static CsrMatrix prune(float[] w, GpuCase c, PruneSpec spec) {
        Pruner.apply(spec, List.of(new LayerWeights(c.layer(), c.rows(), c.cols(), w)));
        return CsrMatrix.from(MatrixView.of(c.rows(), c.cols(), w));
    }
}
