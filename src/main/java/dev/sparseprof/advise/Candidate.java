package dev.sparseprof.advise;

import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.SparseprofException;

/**
 * One way to leave a layer: its weights pruned to {@code pattern} at {@code sparsity} (null pattern:
 * as the model holds them), scanned once into {@code workload} (N = one sample, re-widened per
 * token count), and the pruning error: {@code errorSquared = ||W - W_pruned||_F^2}, {@code proxyLoss}
 * that divided by {@code ||W||_F^2}, square-rooted (a quality proxy, not an accuracy). With
 * activation norms, {@code activationErrorSquared = ||(W - W_pruned) diag(||X||)||_F^2} and
 * {@code activationProxyLoss} that over {@code ||W diag(||X||)||_F}, square-rooted (Wanda's
 * activation-aware view of the same error); both NaN without norms.
 */
public record Candidate(Pattern pattern, double sparsity, Workload workload, double errorSquared, double proxyLoss,
                        double activationErrorSquared, double activationProxyLoss) {
    public Candidate {
        if (workload == null) throw new SparseprofException("a candidate needs a workload");
        if (!(errorSquared >= 0) || !(proxyLoss >= 0)) throw new SparseprofException("pruning error must be non-negative");
        if (activationErrorSquared < 0 || activationProxyLoss < 0) throw new SparseprofException("activation-weighted error must be non-negative");
    }

    /** The error the plan weighs: the activation-weighted one where norms were given, else {@code errorSquared}. */
    public double planErrorSquared() {
        return Double.isNaN(activationErrorSquared) ? errorSquared : activationErrorSquared;
    }

    /** True for the layer as the model holds it. */
    public boolean kept() {
        return pattern == null;
    }

    public String patternLabel() {
        return pattern == null ? "dense" : pattern.label();
    }
}
