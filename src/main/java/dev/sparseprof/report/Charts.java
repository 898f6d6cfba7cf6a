package dev.sparseprof.report;

import dev.sparseprof.hw.CacheLevel;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.perfmodel.GapBreakdown;
import dev.sparseprof.perfmodel.KernelPlan;
import dev.sparseprof.perfmodel.LayerEstimate;
import dev.sparseprof.perfmodel.Traffic;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The report's charts, drawn headless with JFreeChart and returned as base64 PNG for embedding:
 * the cache-aware roofline with each layer as a point, per-layer sparsity, miss rates by level,
 * times per format, and the waterfall of the efficiency gap.
 */
final class Charts {
    static final int WIDTH = 1100;
    static final int HEIGHT = 520;
    private static final double AI_MIN = 0.01;
    private static final double AI_MAX = 10000;

    private Charts() {}

    static String png(JFreeChart chart) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ChartUtils.writeChartAsPNG(bytes, chart, WIDTH, HEIGHT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** Roofs for every compute unit/dtype the estimates use and every level with a bandwidth; one point per estimate. */
    static JFreeChart roofline(HardwareSpec spec, List<LayerEstimate> estimates) {
        XYSeriesCollection data = new XYSeriesCollection();
        Set<String> computeRoofs = new LinkedHashSet<>();
        for (LayerEstimate e : estimates) {
            for (KernelPlan p : List.of(e.predicted().plan(), e.dense().plan())) {
                String key = p.unit().key() + " " + p.computeDType().label();
                if (computeRoofs.add(key)) {
                    XYSeries roof = new XYSeries("peak " + key, false);
                    double peak = spec.peaks().flopsPerSecond(p.unit(), p.computeDType());
                    roof.add(AI_MIN, peak);
                    roof.add(AI_MAX, peak);
                    data.addSeries(roof);
                }
            }
        }
        List<CacheLevel> caches = spec.cacheLevels();
        for (CacheLevel c : caches) if (c.hasBandwidth()) data.addSeries(bandwidthRoof(c.name(), c.bandwidthBytesPerSecond()));
        data.addSeries(bandwidthRoof("DRAM", spec.dram().bandwidth().at(spec.parallelUnits())));
        int roofs = data.getSeriesCount();
        XYSeries sparse = new XYSeries("layers, chosen format (DRAM intensity)", false);
        XYSeries dense = new XYSeries("layers, dense", false);
        for (LayerEstimate e : estimates) {
            add(sparse, e.predicted().plan().executedFlops(), e.predicted().traffic(), e.predictedSeconds());
            add(dense, e.dense().plan().executedFlops(), e.dense().traffic(), e.denseSeconds());
        }
        data.addSeries(sparse);
        data.addSeries(dense);
        JFreeChart chart = ChartFactory.createXYLineChart("Roofline: " + spec.name(), "FLOP per DRAM byte", "FLOP/s",
                data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        LogAxis x = new LogAxis("FLOP per DRAM byte");
        LogAxis y = new LogAxis("FLOP/s");
        x.setRange(AI_MIN, AI_MAX);
        for (LogAxis a : List.of(x, y)) {
            a.setTickUnit(new NumberTickUnit(1)); // one tick per decade
            a.setNumberFormatOverride(new DecimalFormat("0.#E0"));
            a.setMinorTickCount(9);
        }
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
        for (int i = 0; i < data.getSeriesCount(); i++) {
            boolean roof = i < roofs;
            r.setSeriesLinesVisible(i, roof);
            r.setSeriesShapesVisible(i, !roof);
            if (roof) r.setSeriesStroke(i, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        r.setSeriesPaint(roofs, new Color(200, 30, 30));
        r.setSeriesPaint(roofs + 1, new Color(30, 30, 200));
        plot.setRenderer(r);
        plot.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    private static XYSeries bandwidthRoof(String name, double bytesPerSecond) {
        XYSeries s = new XYSeries(name + " roof", false);
        s.add(AI_MIN, bytesPerSecond * AI_MIN);
        s.add(AI_MAX, bytesPerSecond * AI_MAX);
        return s;
    }

    private static void add(XYSeries s, double flops, Traffic t, double seconds) {
        double dram = t.dramBytes();
        if (dram > 0 && seconds > 0) s.add(Math.max(AI_MIN, Math.min(AI_MAX, flops / dram)), flops / seconds);
    }

    static JFreeChart sparsity(List<LayerEstimate> estimates) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        List<String> names = shortNames(estimates);
        for (int i = 0; i < estimates.size(); i++) d.addValue(100 * estimates.get(i).workload().sparsity(), "sparsity", names.get(i));
        return bars("Sparsity per layer", "sparsity (%)", d);
    }

    static JFreeChart missRates(List<LayerEstimate> estimates) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        List<String> names = shortNames(estimates);
        for (int l = 0; l < estimates.size(); l++) {
            Traffic t = estimates.get(l).predicted().traffic();
            for (int i = 0; i < t.levels().size() - 1; i++) d.addValue(100 * t.missRate(i), t.levels().get(i), names.get(l));
        }
        return bars("Miss rate by level (" + (estimates.isEmpty() ? "" : estimates.get(0).predicted().traffic().source()) + ")",
                "miss rate (%)", d);
    }

    /** Time per layer for each series: {@code series.get(i)} names the times {@code seconds[i][layer]}. */
    static JFreeChart times(String title, List<String> layers, List<String> series, double[][] seconds) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        List<String> names = shortNames(layers);
        for (int s = 0; s < series.size(); s++) {
            for (int l = 0; l < layers.size(); l++) d.addValue(seconds[s][l] * 1e6, series.get(s), names.get(l));
        }
        return bars(title, "time (us)", d);
    }

    /** Ideal time, each part of the gap, and the predicted total, summed over {@code estimates}. */
    static JFreeChart gapWaterfall(String title, List<LayerEstimate> estimates) {
        double ideal = 0;
        double[] parts = new double[GapBreakdown.PART_NAMES.length];
        for (LayerEstimate e : estimates) {
            ideal += e.gap().idealSeconds();
            double[] p = e.gap().parts();
            for (int i = 0; i < parts.length; i++) parts[i] += p[i];
        }
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        d.addValue(ideal * 1e6, "time", "ideal (dense / theory)");
        double total = ideal;
        for (int i = 0; i < parts.length; i++) {
            d.addValue(parts[i] * 1e6, "time", GapBreakdown.PART_NAMES[i]);
            total += parts[i];
        }
        d.addValue(total * 1e6, "time", "predicted");
        JFreeChart chart = ChartFactory.createWaterfallChart(title, null, "time (us)", d, PlotOrientation.VERTICAL, false, false, false);
        chart.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        return chart;
    }

    static List<String> shortNames(List<?> layers) {
        List<String> names = new ArrayList<>(layers.size());
        for (Object o : layers) names.add(o instanceof LayerEstimate e ? e.workload().name() : o.toString());
        return LabelNames.shorten(names);
    }

    private static JFreeChart bars(String title, String axis, DefaultCategoryDataset d) {
        JFreeChart chart = ChartFactory.createBarChart(title, null, axis, d, PlotOrientation.VERTICAL, true, false, false);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_90);
        plot.getDomainAxis().setMaximumCategoryLabelWidthRatio(0.6f);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.GRAY);
        return chart;
    }
}
