package dev.sparseprof.advise;

import dev.sparseprof.util.SparseprofException;
import java.util.List;
import java.util.Locale;

/**
 * A model-level plan on one machine at one token count: each layer's choice, the whole model's
 * predicted speedup ({@code sum of dense baselines / sum of chosen times}, the figure {@code
 * simulate --format auto} prints as {@code totals.speedup} for the pruned model) and its proxy loss
 * ({@code sqrt(sum ||W - W_pruned||^2 / sum ||W||^2)} over all GEMM weights), and with activation
 * norms the same over {@code W diag(||X||)} (NaN without; the loss budget then bounds this one).
 * {@code frontier}: (proxy loss the plan weighs, whole-model speedup) after each greedy step with no
 * goal, from the model as it is to every layer at its fastest point: the speedup-vs-loss frontier.
 */
public record Plan(String spec, long tokens, double predictedSpeedup, double proxyLoss, double activationProxyLoss, double denseSeconds,
                   double predictedSeconds, List<Choice> layers, List<LayerCurve> curves, List<double[]> frontier) {
    public Plan {
        layers = List.copyOf(layers);
        curves = List.copyOf(curves);
        frontier = List.copyOf(frontier);
        if (layers.size() != curves.size()) throw new SparseprofException("one choice per curve");
    }

    /** This plan with {@code f} as its frontier. */
    public Plan withFrontier(List<double[]> f) {
        return new Plan(spec, tokens, predictedSpeedup, proxyLoss, activationProxyLoss, denseSeconds, predictedSeconds, layers, curves, f);
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

        /** The activation-aware proxy (NaN without activation norms). */
        public double activationProxyLoss() {
            return point.candidate().activationProxyLoss();
        }
    }

    static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }
}
