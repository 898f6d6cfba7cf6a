package dev.sparseprof.advise;

import dev.sparseprof.util.SparseprofException;
import java.util.List;
import java.util.Locale;

/**
 * A model-level plan on one machine at one token count: each layer's choice, the whole model's
 * predicted speedup ({@code sum of dense baselines / sum of chosen times}, the figure {@code
 * simulate --format auto} prints as {@code totals.speedup} for the pruned model) and its proxy loss
 * ({@code sqrt(sum ||W - W_pruned||^2 / sum ||W||^2)} over all GEMM weights).
 */
public record Plan(String spec, long tokens, double predictedSpeedup, double proxyLoss, double denseSeconds,
                   double predictedSeconds, List<Choice> layers, List<LayerCurve> curves) {
    public Plan {
        layers = List.copyOf(layers);
        curves = List.copyOf(curves);
        if (layers.size() != curves.size()) throw new SparseprofException("one choice per curve");
    }

    /**
     * One layer's part of the plan: the chosen point and, where the layer is left as it is, why
     * (null where it is pruned).
     */
    public record Choice(String name, Point point, String reason) {
        public String pattern() {
            return point.candidate().patternLabel();
        }

        public double sparsity() {
            return point.candidate().sparsity();
        }

        public String format() {
            return point.format();
        }

        public double speedup() {
            return point.speedup();
        }

        public double proxyLoss() {
            return point.candidate().proxyLoss();
        }
    }

    static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }
}
