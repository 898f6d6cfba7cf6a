package dev.sparseprof.advise;

import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The model-level plan from the per-layer curves: a greedy walk over each layer's lower convex hull
 * of (pruning error, time), taking the step of the most time saved per unit of added squared error
 * first. With a target speedup it stops as soon as the whole model reaches it (the least loss for
 * that speedup, up to the hull's convexity); with a loss budget it takes every step that still fits.
 * Times are summed as {@code simulate} sums them, with each layer's own dense baseline.
 */
public final class Planner {
    private Planner() {}

    /** What to plan for: exactly one of a target speedup (> 1) and a loss budget (>= 0) is set, the other NaN. */
    public record Goal(double targetSpeedup, double lossBudget) {
        public Goal {
            if (Double.isNaN(targetSpeedup) == Double.isNaN(lossBudget)) throw new SparseprofException("give one of a target speedup and a loss budget");
            if (!Double.isNaN(targetSpeedup) && !(targetSpeedup > 0)) throw new SparseprofException("--target-speedup must be positive, got " + targetSpeedup);
            if (!Double.isNaN(lossBudget) && !(lossBudget >= 0)) throw new SparseprofException("--loss-budget must be non-negative, got " + lossBudget);
        }

        public static Goal speedup(double x) {
            return new Goal(x, Double.NaN);
        }

        public static Goal budget(double loss) {
            return new Goal(Double.NaN, loss);
        }
    }

    /** A target no choice of points reaches: the best reachable whole-model speedup is in the message. */
    public static final class Unreachable extends SparseprofException {
        private final double best;

        Unreachable(String message, double best) {
            super(message);
            this.best = best;
        }

        public double bestReachable() {
            return best;
        }
    }

    public static Plan plan(String specName, long tokens, List<LayerCurve> curves, Goal goal, PerfModel model, DType dtype) {
        int layers = curves.size();
        Point[][] hulls = new Point[layers][];
        int[] at = new int[layers];
        double denseTotal = 0;
        double timeTotal = 0;
        double fastestDense = 0;
        double fastestTime = 0;
        double normTotal = 0;
        double weightNormTotal = 0;
        for (int i = 0; i < layers; i++) {
            LayerCurve c = curves.get(i);
            hulls[i] = hull(c.points());
            denseTotal += c.kept().denseSeconds();
            timeTotal += c.kept().seconds();
            Point f = c.fastest();
            fastestDense += f.denseSeconds();
            fastestTime += f.seconds();
            normTotal += planNormSquared(c.layer());
            weightNormTotal += c.layer().normSquared();
        }
        double errTotal = 0;
        double budgetErr = Double.isNaN(goal.lossBudget()) ? Double.POSITIVE_INFINITY : goal.lossBudget() * goal.lossBudget() * normTotal;
        boolean[] closed = new boolean[layers];
        List<double[]> path = new ArrayList<>();
        path.add(new double[] {0, denseTotal / timeTotal});
        while (Double.isNaN(goal.targetSpeedup()) || denseTotal / timeTotal < goal.targetSpeedup()) {
            int pick = -1;
            double bestRatio = -1;
            for (int i = 0; i < layers; i++) {
                if (closed[i] || at[i] + 1 >= hulls[i].length) continue;
                Point from = hulls[i][at[i]];
                Point to = hulls[i][at[i] + 1];
                double saved = from.seconds() - to.seconds();
                double added = to.candidate().planErrorSquared() - from.candidate().planErrorSquared();
                double ratio = added <= 0 ? Double.POSITIVE_INFINITY : saved / added;
                if (saved > 0 && ratio > bestRatio) {
                    bestRatio = ratio;
                    pick = i;
                }
            }
            if (pick < 0) break;
            Point from = hulls[pick][at[pick]];
            Point to = hulls[pick][at[pick] + 1];
            double added = to.candidate().planErrorSquared() - from.candidate().planErrorSquared();
            if (errTotal + added > budgetErr) {
                closed[pick] = true;
                continue;
            }
            errTotal += added;
            timeTotal += to.seconds() - from.seconds();
            denseTotal += to.denseSeconds() - from.denseSeconds();
            at[pick]++;
            path.add(new double[] {normTotal > 0 ? Math.sqrt(errTotal / normTotal) : 0, denseTotal / timeTotal});
        }
        double speedup = denseTotal / timeTotal;
        if (!Double.isNaN(goal.targetSpeedup()) && speedup < goal.targetSpeedup()) {
            double best = fastestDense / fastestTime;
            throw new Unreachable(String.format(Locale.ROOT, "advise: target speedup %.2fx is not reachable on %s at %d tokens: "
                    + "the best reachable is %.3fx (every layer at its fastest pattern)", goal.targetSpeedup(), specName, tokens, best), best);
        }
        List<Plan.Choice> choices = new ArrayList<>(layers);
        for (int i = 0; i < layers; i++) {
            LayerCurve c = curves.get(i);
            Point p = hulls[i][at[i]];
            String reason = null;
            if (p.candidate().kept()) {
                if (hulls[i].length > 1) {
                    reason = String.format(Locale.ROOT, "not needed: others save more per unit loss; up to %.2fx here (%s)",
                            c.fastest().speedup(), c.fastest().candidate().patternLabel() + " " + Plan.pct(c.fastest().candidate().sparsity()));
                } else {
                    reason = "not worth it: " + c.whyNotWorth(model, dtype, tokens);
                }
            }
            choices.add(new Plan.Choice(c.layer().name(), p, reason));
        }
        double weightErr = 0;
        double activationErr = 0;
        double activationNorm = 0;
        boolean aware = false;
        for (int i = 0; i < layers; i++) {
            Candidate c = hulls[i][at[i]].candidate();
            weightErr += c.errorSquared();
            if (!Double.isNaN(c.activationErrorSquared())) {
                aware = true;
                activationErr += c.activationErrorSquared();
                activationNorm += curves.get(i).layer().activationNormSquared();
            }
        }
        double loss = weightNormTotal > 0 ? Math.sqrt(weightErr / weightNormTotal) : 0;
        double activationLoss = !aware ? Double.NaN : activationNorm > 0 ? Math.sqrt(activationErr / activationNorm) : 0;
        return new Plan(specName, tokens, speedup, loss, activationLoss, denseTotal, timeTotal, choices, curves, path);
    }

    /** The norm the plan's error is relative to: {@code ||W diag(||X||)||^2} where the layer has norms, else {@code ||W||^2}. */
    private static double planNormSquared(LayerCandidates l) {
        return Double.isNaN(l.activationNormSquared()) ? l.normSquared() : l.activationNormSquared();
    }

    /**
     * The layer as it is, then the points on the lower convex hull of (squared error, time) that are
     * faster than it, in order of growing error (so each step saves less time per unit error than
     * the one before).
     */
    static Point[] hull(List<Point> points) {
        Point start = points.get(0);
        List<Point> faster = new ArrayList<>();
        for (Point p : points) if (!p.candidate().kept() && p.seconds() < start.seconds()) faster.add(p);
        Point[] sorted = faster.toArray(new Point[0]);
        Arrays.sort(sorted, (a, b) -> a.candidate().planErrorSquared() != b.candidate().planErrorSquared()
                ? Double.compare(a.candidate().planErrorSquared(), b.candidate().planErrorSquared()) : Double.compare(a.seconds(), b.seconds()));
        List<Point> h = new ArrayList<>();
        h.add(start);
        for (Point p : sorted) {
            if (p.seconds() >= h.get(h.size() - 1).seconds()) continue;
            while (h.size() >= 2 && !convex(h.get(h.size() - 2), h.get(h.size() - 1), p)) h.remove(h.size() - 1);
            h.add(p);
        }
        return h.toArray(new Point[0]);
    }

    /** True when b lies below the chord from a to c (a saves at least as much per unit error up to b as b to c). */
    private static boolean convex(Point a, Point b, Point c) {
        double x1 = b.candidate().planErrorSquared() - a.candidate().planErrorSquared();
        double y1 = a.seconds() - b.seconds();
        double x2 = c.candidate().planErrorSquared() - b.candidate().planErrorSquared();
        double y2 = b.seconds() - c.seconds();
        return y1 * x2 > y2 * x1;
    }
}
