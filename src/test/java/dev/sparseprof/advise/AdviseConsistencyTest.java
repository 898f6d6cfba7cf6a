package dev.sparseprof.advise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.model.GemmLayer;
import dev.sparseprof.model.LayerKind;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Simulation;
import dev.sparseprof.perfmodel.TrafficModel;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Over random small models, specs, token counts and budgets: every point's format is the fastest of
 * the estimates PerfModel gives for those weights (its time the minimum of them), the plan's speedup
 * is the sum of its layers' baselines over the sum of their times, the loss budget holds, and no
 * plan claims more than the FLOP bound (dense FLOPs over the kept weights' FLOPs).
 */
class AdviseConsistencyTest {
    private static final List<Pattern> PATTERNS = List.of(Pattern.UNSTRUCTURED, Pattern.parse("2:4"), Pattern.parse("bsr4x4"),
            Pattern.parse("bsr16x16"), Pattern.ROWS);

    static List<GemmLayer> randomModel(Random rnd) {
        int layers = 2 + rnd.nextInt(3);
        List<GemmLayer> out = new ArrayList<>();
        for (int i = 0; i < layers; i++) {
            int rows = 16 * (1 + rnd.nextInt(12)) + (rnd.nextBoolean() ? 0 : 4 * rnd.nextInt(4));
            int cols = 16 * (1 + rnd.nextInt(12)) + (rnd.nextBoolean() ? 0 : 4 * rnd.nextInt(4));
            float[] v = new float[rows * cols];
            double scale = Math.exp(rnd.nextGaussian());
            for (int k = 0; k < v.length; k++) v[k] = (float) (rnd.nextGaussian() * scale);
            out.add(new GemmLayer("l" + i, "l" + i + ".weight", LayerKind.LINEAR, rows, cols, 1, MatrixView.of(rows, cols, v)));
        }
        return out;
    }

    @Test
    void choicesAreTheMinimumAndPlansStayUnderTheFlopBound() {
        Random rnd = new Random(2026);
        String[] specs = {"epyc-zen5-2c", "xeon-spr", "a100-80gb", "h100-sxm"};
        for (int trial = 0; trial < 6; trial++) {
            List<GemmLayer> model = randomModel(rnd);
            List<LayerCandidates> candidates = Advice.candidates(model, PATTERNS, new double[] {0.5, 0.8, 0.95}, Progress.NONE);
            String name = specs[trial % specs.length];
            HardwareSpec spec = HardwareSpecs.load(name);
            long tokens = 1L << rnd.nextInt(12);
            double budget = 0.1 + 0.8 * rnd.nextDouble();
            Plan plan = Advice.plan(spec, name, tokens, candidates, Planner.Goal.budget(budget));
            PerfModel pm = new PerfModel(spec, TrafficModel.ANALYTICAL);
            DType dtype = Simulation.defaultDType(spec);
            double dense = 0;
            double time = 0;
            double denseFlops = 0;
            double usefulFlops = 0;
            for (int i = 0; i < plan.layers().size(); i++) {
                for (Point p : plan.curves().get(i).points()) {
                    Workload w = p.candidate().workload().withColumns(tokens).withDType(dtype);
                    List<LayerEstimate> all = pm.estimates(w, LayerCurve.allFormats());
                    LayerEstimate best = PerfModel.fastest(all, false);
                    double min = Double.POSITIVE_INFINITY;
                    for (LayerEstimate e : all) min = Math.min(min, e.predictedSeconds());
                    assertEquals(best.format(), p.format(), name + " " + w.name());
                    assertEquals(min, p.seconds(), 1e-12 * min, name + " " + w.name());
                    assertEquals(best.denseSeconds(), p.denseSeconds(), 1e-12 * min);
                }
                Point chosen = plan.layers().get(i).point();
                dense += chosen.denseSeconds();
                time += chosen.seconds();
                Workload w = chosen.candidate().workload().withColumns(tokens);
                denseFlops += w.denseFlops();
                usefulFlops += w.sparseFlops();
            }
            assertEquals(dense / time, plan.predictedSpeedup(), 1e-9 * plan.predictedSpeedup());
            assertTrue(plan.proxyLoss() <= budget + 1e-12, plan.proxyLoss() + " > " + budget);
            assertTrue(plan.predictedSpeedup() <= denseFlops / usefulFlops * (1 + 1e-9),
                    name + " at " + tokens + ": " + plan.predictedSpeedup() + " over the FLOP bound " + denseFlops / usefulFlops);
            assertTrue(plan.predictedSpeedup() >= 1 - 1e-12, "a plan never loses to leaving every layer as it is");
        }
    }

    @Test
    void aTargetIsReachedWithNoMoreLossThanTheFastestPlanAndAnUnreachableOneSaysTheBest() {
        Random rnd = new Random(7);
        List<LayerCandidates> candidates = Advice.candidates(randomModel(rnd), PATTERNS, new double[] {0.5, 0.9}, Progress.NONE);
        HardwareSpec spec = HardwareSpecs.load("epyc-zen5-2c");
        Plan fastest = Advice.plan(spec, "epyc-zen5-2c", 64, candidates, Planner.Goal.budget(1.0));
        double half = 1 + (fastest.predictedSpeedup() - 1) / 2;
        Plan target = Advice.plan(spec, "epyc-zen5-2c", 64, candidates, Planner.Goal.speedup(half));
        assertTrue(target.predictedSpeedup() >= half);
        assertTrue(target.proxyLoss() <= fastest.proxyLoss() + 1e-12);
        Planner.Unreachable u = assertThrows(Planner.Unreachable.class,
                () -> Advice.plan(spec, "epyc-zen5-2c", 64, candidates, Planner.Goal.speedup(fastest.predictedSpeedup() * 2 + 1)));
        assertTrue(u.bestReachable() >= fastest.predictedSpeedup() - 1e-12);
        assertTrue(u.getMessage().contains("the best reachable is"), u.getMessage());
    }

    @Test
    void impossiblePatternsAreNamedPerLayer() {
        GemmLayer odd = new GemmLayer("odd", "odd.weight", LayerKind.LINEAR, 30, 9, 1, MatrixView.of(30, 9, new float[270]));
        LayerCandidates c = LayerCandidates.of(odd, PATTERNS, new double[] {0.5});
        assertEquals(List.of("2:4", "bsr4x4", "bsr16x16"), List.copyOf(c.impossible().keySet()));
        assertEquals(3, c.candidates().size(), "as it is, unstructured and rows");
    }
}
