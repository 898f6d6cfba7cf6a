package dev.sparseprof.advise;

import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.perfmodel.Workloads;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A layer's candidates: the layer as it is, then every possible pattern at every sparsity of the
 * grid, each pruned by {@code sparse.prune} on a copy of the real weights and scanned by the same
 * code {@code simulate} uses on a model file. None of this depends on the machine or the token
 * count, so it is done once per layer and reused for every spec and N. {@code impossible} holds, per
 * pattern that cannot be laid on this layer, why. With activation norms the pruning ranks Wanda's
 * score ({@link ActivationNorms#prune}) and {@code activationNormSquared} is {@code ||W diag(||X||)||_F^2}
 * (NaN without).
 */
public record LayerCandidates(GemmLayer layer, double normSquared, double activationNormSquared, List<Candidate> candidates,
                              Map<String, String> impossible) {
    public LayerCandidates {
        candidates = List.copyOf(candidates);
        impossible = Collections.unmodifiableMap(new LinkedHashMap<>(impossible));
    }

    public String name() {
        return layer.name();
    }

    /** The candidates of {@code layer} for {@code patterns} over {@code grid} (N:M once, at its own sparsity). */
    public static LayerCandidates of(GemmLayer layer, List<Pattern> patterns, double[] grid) {
        return of(layer, patterns, grid, null);
    }

    /** As above, ranked by Wanda's score with the layer's input-channel norms {@code x} (null: by magnitude). */
    public static LayerCandidates of(GemmLayer layer, List<Pattern> patterns, double[] grid, float[] x) {
        float[] original = layer.matrix().toDense();
        double norm = 0;
        for (float v : original) norm += (double) v * v;
        double activationNorm = x == null ? Double.NaN : weighted(original, original, layer.cols(), x, false);
        List<Candidate> out = new ArrayList<>();
        out.add(new Candidate(null, 0, scan(layer, layer.matrix()), 0, 0, x == null ? Double.NaN : 0, x == null ? Double.NaN : 0));
        Map<String, String> impossible = new LinkedHashMap<>();
        for (Pattern p : patterns) {
            String why = p.impossibleOn(layer.rows(), layer.cols());
            if (why != null) {
                impossible.put(p.label(), why);
                continue;
            }
            if (p.hasFixedSparsity()) {
                out.add(pruned(layer, original, norm, activationNorm, x, p, p.fixedSparsity()));
            } else {
                for (double s : grid) out.add(pruned(layer, original, norm, activationNorm, x, p, s));
            }
        }
        return new LayerCandidates(layer, norm, activationNorm, out, impossible);
    }

    private static Candidate pruned(GemmLayer layer, float[] original, double norm, double activationNorm, float[] x, Pattern p, double s) {
        float[] copy = original.clone();
        ActivationNorms.prune(p.spec(s), layer.name(), layer.rows(), layer.cols(), copy, x);
        double err = 0;
        for (int i = 0; i < copy.length; i++) {
            double d = (double) original[i] - copy[i];
            err += d * d;
        }
        double proxy = norm > 0 ? Math.sqrt(err / norm) : 0;
        double aErr = x == null ? Double.NaN : weighted(original, copy, layer.cols(), x, true);
        double aProxy = x == null ? Double.NaN : activationNorm > 0 ? Math.sqrt(aErr / activationNorm) : 0;
        return new Candidate(p, s, scan(layer, MatrixView.of(layer.rows(), layer.cols(), copy)), err, proxy, aErr, aProxy);
    }

    /** {@code sum_ij ((a_ij - b_ij) x_j)^2} when {@code difference}, else {@code sum_ij (a_ij x_j)^2}. */
    private static double weighted(float[] a, float[] b, int cols, float[] x, boolean difference) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            double d = difference ? (double) a[i] - b[i] : a[i];
            double v = d * x[i % cols];
            sum += v * v;
        }
        return sum;
    }

    /**
     * The same workload {@code simulate} builds for a layer holding {@code weights} (one sample wide),
     * keeping only its statistics: the analytical traffic every estimate here uses reads nothing
     * else, and the pruned copy is dropped, so memory holds one layer's copy at a time.
     */
    private static Workload scan(GemmLayer layer, MatrixView weights) {
        GemmLayer view = new GemmLayer(layer.name(), layer.tensorName(), layer.kind(), layer.rows(), layer.cols(),
                layer.columnsPerSample(), weights, layer.groups(), layer.depthwise(), layer.storedDType(), layer.tokenShare());
        Workload w = Workloads.of(view, 1, DType.F32, Workloads.Pruning.NONE, 0);
        return Workloads.of(w.name(), w.stats(), w.denseColumns(), w.dtype());
    }
}
