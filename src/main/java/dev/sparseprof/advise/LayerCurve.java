package dev.sparseprof.advise;

import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.Features;
import dev.sparseprof.perfmodel.FormatModel;
import dev.sparseprof.perfmodel.FormatModels;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.PerfModel;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.perfmodel.Workload;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A layer's speedup curves on one machine at one token count: one {@link Point} per candidate
 * (index 0 is the layer as it is). Every point is estimated as {@code simulate --format auto}
 * estimates a layer: every registered format that can run the pruned weights, against the dense
 * baseline of those weights, the fastest kept (ties to the earlier format).
 */
public record LayerCurve(LayerCandidates layer, List<Point> points) {
    public LayerCurve {
        points = List.copyOf(points);
        if (points.isEmpty() || !points.get(0).candidate().kept()) throw new SparseprofException("a curve starts with the layer as it is");
    }

    public Point kept() {
        return points.get(0);
    }

    /** The curve of {@code layer} on {@code model} at {@code tokens} samples in {@code dtype}. */
    public static LayerCurve of(PerfModel model, List<FormatModel> formats, LayerCandidates layer, long tokens, DType dtype) {
        HardwareSpec spec = model.spec();
        List<Point> out = new ArrayList<>(layer.candidates().size());
        for (Candidate c : layer.candidates()) {
            Workload w = workload(c, layer, tokens, dtype);
            Prediction dense = model.baseline(w);
            String best = null;
            double bestSeconds = Double.POSITIVE_INFINITY;
            String sparse = null;
            double sparseSeconds = Double.NaN;
            for (FormatModel f : formats) {
                if (f.unsupported(w, spec) != null) continue;
                double t = f.name().equals("dense") ? dense.seconds() : model.predict(w, f, Features.ALL).seconds();
                if (t < bestSeconds) {
                    bestSeconds = t;
                    best = f.name();
                }
                if (!f.name().equals("dense") && (sparse == null || t < sparseSeconds)) {
                    sparse = f.name();
                    sparseSeconds = t;
                }
            }
            if (best == null) throw new SparseprofException(spec.source() + ": " + w.name() + ": none of the formats can run this layer");
            out.add(new Point(c, best, bestSeconds, dense.seconds(), sparse, sparseSeconds));
        }
        return new LayerCurve(layer, out);
    }

    /** Candidate {@code c}'s GEMM as {@code layer} runs it at {@code tokens} samples in {@code dtype}: its N and how often it runs. */
    private static Workload workload(Candidate c, LayerCandidates layer, long tokens, DType dtype) {
        return c.workload().withColumns(layer.layer().denseColumns(tokens)).withDType(dtype).withRuns(layer.layer().activeShare(tokens));
    }

    /** Every registered format, as {@code --format auto} takes them. */
    public static List<FormatModel> allFormats() {
        List<FormatModel> all = new ArrayList<>();
        for (String name : FormatModels.names()) all.add(FormatModels.byName(name));
        return all;
    }

    /**
     * The lowest grid sparsity at which {@code pattern}'s fastest sparse format beats dense, NaN when
     * none does.
     */
    public double breakEven(Pattern pattern) {
        double best = Double.NaN;
        for (Point p : points) {
            if (p.candidate().kept() || !p.candidate().pattern().equals(pattern)) continue;
            if (p.sparseFormat() != null && p.sparseSeconds() < p.denseSeconds() && !(p.candidate().sparsity() >= best)) best = p.candidate().sparsity();
        }
        return best;
    }

    /** The point of the highest speedup (the fastest format's), the layer as it is on ties. */
    public Point fastest() {
        Point best = kept();
        for (Point p : points) if (p.speedup() > best.speedup()) best = p;
        return best;
    }

    /** The point whose fastest sparse format has the highest speedup, or null where no sparse format runs. */
    public Point fastestSparse() {
        Point best = null;
        for (Point p : points) {
            if (p.sparseFormat() == null) continue;
            if (best == null || p.sparseSpeedup() > best.sparseSpeedup()) best = p;
        }
        return best;
    }

    /**
     * Why no pruning of this layer beats it as it is, in one phrase, read from the full estimate of
     * the best sparse point: its largest gap part and bottleneck.
     */
    public String whyNotWorth(PerfModel model, DType dtype, long tokens) {
        Point p = fastestSparse();
        if (p == null) return "no sparse format can run this layer";
        Workload w = workload(p.candidate(), layer, tokens, dtype);
        LayerEstimate e = model.estimate(w, FormatModels.byName(p.sparseFormat()));
        String as = p.sparseFormat().equals(p.candidate().patternLabel()) ? "" : " as " + p.sparseFormat();
        String best = String.format(Locale.ROOT, "best %s %s%s: %.2fx", p.candidate().patternLabel(),
                Plan.pct(p.candidate().sparsity()), as, e.speedup());
        Prediction pr = e.predicted();
        if (pr.overheadSeconds() >= e.denseSeconds()) return "too small, fixed costs > dense time; " + best;
        int part = e.gap().largestPart();
        String why = switch (part) {
            case 0 -> pr.bottleneck().equals("compute") ? "compute-bound, a slower unit"
                    : pr.bottleneck().equals("overhead") ? "overhead-bound" : "memory-bound (" + pr.bottleneck() + ")";
            case 1 -> "memory-bound (index bytes)";
            case 2 -> "memory-bound (gather misses)";
            case 3 -> "tail effect (imbalance)";
            case 4 -> "overhead-bound";
            default -> "no gap part dominates";
        };
        return why + "; " + best;
    }
}
