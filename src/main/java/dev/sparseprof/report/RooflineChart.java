package dev.sparseprof.report;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.ComputeUnit;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.KernelPlan;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Prediction;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.JsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The roofline chart's data: the compute ceilings of every unit and dtype the kernels use, each
 * level's bandwidth diagonal (the page draws each as {@code min(top ceiling, bandwidth x AI)}, so a
 * diagonal never runs past the roof), one overhead ceiling per layer shape ({@code FLOPs / fixed
 * costs}: a kernel that small cannot go faster whatever its intensity), and one point per layer at
 * its DRAM intensity and achieved TFLOP/s. Units: TFLOP/s and FLOP per DRAM byte.
 */
final class RooflineChart {
    private static final int MAX_OVERHEAD_CEILINGS = 4;

    private RooflineChart() {}

    /** Writes the chart object; {@code dense} adds the dense GEMM of each layer as a second point series. */
    static void write(JsonWriter j, String id, String title, HardwareSpec spec, List<LayerEstimate> chosen, boolean dense) {
        Map<String, Double> ceilings = new LinkedHashMap<>();
        for (LayerEstimate e : chosen) {
            for (KernelPlan p : List.of(e.predicted().plan(), e.dense().plan())) {
                if (!spec.peaks().has(p.unit(), p.computeDType())) continue;
                ceilings.putIfAbsent(ceilingName(p.unit(), p.computeDType()), spec.peaks().flopsPerSecond(p.unit(), p.computeDType()) / 1e12);
            }
        }
        List<String> diagonalNames = new ArrayList<>();
        List<Double> diagonals = new ArrayList<>();
        for (CacheLevel c : spec.cacheLevels()) {
            if (!c.hasBandwidth()) continue;
            diagonalNames.add(c.name());
            diagonals.add(c.bandwidthBytesPerSecond() / 1e12);
        }
        double dramTbps = spec.dram().bandwidth().at(spec.parallelUnits()) / 1e12;
        diagonalNames.add("DRAM");
        diagonals.add(dramTbps);

        double xLo = Double.POSITIVE_INFINITY;
        double xHi = 0;
        double yLo = Double.POSITIVE_INFINITY;
        for (double v : ceilings.values()) {
            for (double d : diagonals) {
                xLo = Math.min(xLo, v / d);
                xHi = Math.max(xHi, v / d);
            }
            yLo = Math.min(yLo, v);
        }
        double top = 0;
        for (double v : ceilings.values()) top = Math.max(top, v);
        Map<String, double[]> overheads = new LinkedHashMap<>();
        for (LayerEstimate e : chosen) {
            KernelPlan p = e.predicted().plan();
            if (p.overheadSeconds() <= 0 || overheads.size() >= MAX_OVERHEAD_CEILINGS) continue;
            String shape = e.workload().rows() + "x" + e.workload().cols() + "x" + e.workload().denseColumns();
            double tflops = p.executedFlops() / p.overheadSeconds() / 1e12;
            boolean near = false; // ceilings within 25% of one already drawn would print on top of each other
            for (double[] o : overheads.values()) near |= Math.abs(Math.log(o[0] / tflops)) < Math.log(1.25);
            if (!near && tflops < top) overheads.putIfAbsent(shape, new double[] {tflops}); // above the roof it binds nothing
        }
        for (double[] o : overheads.values()) yLo = Math.min(yLo, o[0]);
        List<double[]> chosenPoints = points(chosen, false);
        List<double[]> densePoints = dense ? points(chosen, true) : List.of();
        for (List<double[]> ps : List.of(chosenPoints, densePoints)) {
            for (double[] p : ps) {
                xLo = Math.min(xLo, p[0]);
                xHi = Math.max(xHi, p[0]);
                yLo = Math.min(yLo, p[1]);
            }
        }
        j.beginObject().field("id", id).field("kind", "roofline").field("title", title)
                .field("subtitle", spec.name() + ": compute ceilings, bandwidth roofs, overhead ceilings per layer shape; points at DRAM intensity");
        j.field("xMin", decadeBelow(xLo / 3)).field("xMax", decadeAbove(xHi * 3)).field("yMin", decadeBelow(yLo / 3)).field("yMax", decadeAbove(top * 3));
        j.name("ceilings").beginArray();
        for (Map.Entry<String, Double> c : ceilings.entrySet()) j.beginObject().field("name", c.getKey()).field("tflops", c.getValue()).endObject();
        j.endArray().name("diagonals").beginArray();
        for (int i = 0; i < diagonals.size(); i++) j.beginObject().field("name", diagonalNames.get(i)).field("tbps", diagonals.get(i)).endObject();
        j.endArray().name("overheads").beginArray();
        for (Map.Entry<String, double[]> o : overheads.entrySet()) {
            j.beginObject().field("name", "overhead ceiling " + o.getKey()).field("label", "overhead " + o.getKey())
                    .field("tflops", o.getValue()[0]).endObject();
        }
        j.endArray().name("points").beginArray();
        series(j, "layers, chosen format", "#d62728", chosen, false);
        if (dense) series(j, "layers, dense GEMM", "#1f77b4", chosen, true);
        j.endArray().endObject();
    }

    private static void series(JsonWriter j, String name, String color, List<LayerEstimate> estimates, boolean dense) {
        j.beginObject().field("name", name).field("color", color).name("items").beginArray();
        for (LayerEstimate e : estimates) {
            Prediction p = dense ? e.dense() : e.predicted();
            double[] xy = point(p);
            if (xy == null) continue;
            j.beginObject().field("layer", e.workload().name()).field("format", dense ? "dense" : e.format())
                    .field("ai", xy[0]).field("tflops", xy[1]).field("seconds", p.seconds()).field("bottleneck", p.bottleneck()).endObject();
        }
        j.endArray().endObject();
    }

    private static List<double[]> points(List<LayerEstimate> estimates, boolean dense) {
        List<double[]> out = new ArrayList<>();
        for (LayerEstimate e : estimates) {
            double[] xy = point(dense ? e.dense() : e.predicted());
            if (xy != null) out.add(xy);
        }
        return out;
    }

    /** (FLOP per DRAM byte, achieved TFLOP/s), or null when either is not a positive finite number. */
    private static double[] point(Prediction p) {
        double dram = p.traffic().dramBytes();
        double flops = p.plan().executedFlops();
        if (!(dram > 0) || !(flops > 0) || !(p.seconds() > 0)) return null;
        double ai = flops / dram;
        double tflops = flops / p.seconds() / 1e12;
        return Double.isFinite(ai) && Double.isFinite(tflops) ? new double[] {ai, tflops} : null;
    }

    /** {@code sparseTensor} reads as "sparse tensor". */
    static String unitWords(ComputeUnit u) {
        return u.key().replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    static double decadeBelow(double v) {
        return Math.pow(10, Math.floor(Math.log10(v > 0 && Double.isFinite(v) ? v : 1e-3)));
    }

    static double decadeAbove(double v) {
        return Math.pow(10, Math.ceil(Math.log10(v > 0 && Double.isFinite(v) ? v : 1e3)));
    }

    /** A compute ceiling's name: unit and dtype, {@code sparse tensor fp16}. */
    static String ceilingName(ComputeUnit u, DType d) {
        return unitWords(u) + " " + d.label();
    }
}
