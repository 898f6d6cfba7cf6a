package dev.sparseprof.perfmodel;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigLoader;
import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Published sparse-vs-dense measurements (a YAML file under {@code validation/published/}) and the
 * model's predictions for them, side by side. Kinds: {@code speedup} (2:4 on sparse tensor cores
 * against dense, times summed over the case's GEMMs; published times, a speedup, or a speedup
 * range), {@code crossover} (the sparsity from which a format beats dense: uniform, or
 * {@code pattern: block} for whole blocks of a BSR format's shape; the mean over the case's GEMMs). Nothing here
 * is fitted: every case runs on the named shipped spec.
 */
public final class PublishedCases {
    /** One compared figure: {@code error} is relative ((predicted - published) / published) or, for sparsities, in points. */
    public record Row(String caseName, String metric, String published, String predicted, double error, String source) {}

    private static final String[] CASE_KEYS = {"name", "kind", "source", "spec", "dtype", "format", "gemms", "denseTime",
            "sparseTime", "speedup", "speedupLow", "speedupHigh", "crossoverSparsity", "pattern"};

    private PublishedCases() {}

    public static List<Row> evaluate(Path file) {
        ConfigMap root;
        try {
            root = ConfigLoader.load(ConfigSource.of(file), (p, from) -> {
                throw new ConfigException(from.shortName() + ": preset: not supported in a validation file");
            }, 1);
            root.allow("version", "cases");
            List<Row> rows = new ArrayList<>();
            for (ConfigMap c : root.list("cases")) rows.addAll(evaluate(c.allow(CASE_KEYS)));
            return rows;
        } catch (ConfigException e) {
            throw new SparseprofException(e.getMessage(), e);
        }
    }

    private static List<Row> evaluate(ConfigMap c) {
        String name = c.string("name");
        String source = c.string("source");
        HardwareSpec spec = HardwareSpecs.load(c.string("spec"));
        DType dtype = c.parse("dtype", DType::parse, SparseprofException.class);
        PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
        List<Row> rows = new ArrayList<>();
        switch (c.string("kind")) {
            case "speedup" -> {
                double dense = 0;
                double sparse = 0;
                for (ConfigMap g : c.list("gemms")) {
                    g.allow("m", "k", "n", "count");
                    Workload w = Workload.uniformSparse(name, g.positiveInt("m"), g.positiveInt("k"), g.positiveInt("n"), dtype, 0.5, true);
                    LayerEstimate e = model.estimate(w, FormatModels.byName("2:4"));
                    int count = g.positiveInt("count", 1);
                    dense += count * e.denseSeconds();
                    sparse += count * e.predictedSeconds();
                }
                double speedup = dense / sparse;
                if (c.has("denseTime")) rows.add(time(name, "dense time", seconds(c, "denseTime"), dense, source));
                if (c.has("sparseTime")) rows.add(time(name, "2:4 time", seconds(c, "sparseTime"), sparse, source));
                if (c.has("speedup")) {
                    double pub = c.number("speedup");
                    rows.add(new Row(name, "2:4 speedup", fmt(pub) + "x", fmt(speedup) + "x", (speedup - pub) / pub, source));
                }
                if (c.has("speedupLow")) {
                    double lo = c.number("speedupLow");
                    double hi = c.number("speedupHigh");
                    double err = speedup < lo ? (speedup - lo) / lo : speedup > hi ? (speedup - hi) / hi : 0;
                    rows.add(new Row(name, "2:4 speedup range", fmt(lo) + "-" + fmt(hi) + "x", fmt(speedup) + "x", err, source));
                }
            }
            case "crossover" -> {
                // Over several GEMMs (a source's sweep of shapes), the mean of their crossovers.
                FormatModel format = FormatModels.byName(c.string("format"));
                boolean block = c.string("pattern", "unstructured").equals("block");
                double predicted = 0;
                List<ConfigMap> gemms = c.list("gemms");
                for (ConfigMap g : gemms) {
                    g.allow("m", "k", "n", "count");
                    predicted += crossover(model, format, g.positiveInt("m"), g.positiveInt("k"), g.positiveInt("n"), dtype, block) / gemms.size();
                }
                double pub = c.number("crossoverSparsity");
                rows.add(new Row(name, format.name() + " beats dense from sparsity", pct(pub), pct(predicted), predicted - pub, source));
            }
            default -> throw c.error("kind", "must be speedup or crossover, got '" + c.string("kind") + "'");
        }
        return rows;
    }

    /**
     * Bisection on sparsity for the point where the format's speedup over dense crosses 1 (NaN if
     * it never does): uniform random sparsity, or with {@code block} whole blocks of the BSR
     * format's shape kept ({@link Workload#blockSparse}).
     */
    static double crossover(PerfModel model, FormatModel format, int m, int k, long n, DType dtype, boolean block) {
        double lo = 0;
        double hi = 0.999;
        if (speedup(model, format, m, k, n, dtype, hi, block) < 1) return Double.NaN;
        if (speedup(model, format, m, k, n, dtype, lo, block) >= 1) return 0;
        for (int i = 0; i < 40; i++) {
            double mid = (lo + hi) / 2;
            if (speedup(model, format, m, k, n, dtype, mid, block) >= 1) hi = mid;
            else lo = mid;
        }
        return hi;
    }

    private static double speedup(PerfModel model, FormatModel format, int m, int k, long n, DType dtype, double sparsity, boolean block) {
        Workload w = block ? Workload.blockSparse("crossover", m, k, n, dtype, BlockShape.parse(format.name().substring(3)), 1 - sparsity)
                : Workload.uniformSparse("crossover", m, k, n, dtype, 1 - sparsity, false);
        return model.estimate(w, format).speedup();
    }

    private static double seconds(ConfigMap c, String key) {
        return c.parse(key, Units::parseSeconds, SparseprofException.class);
    }

    private static Row time(String name, String metric, double published, double predicted, String source) {
        return new Row(name, metric, Units.formatSeconds(published), Units.formatSeconds(predicted), (predicted - published) / published, source);
    }

    private static String fmt(double x) {
        return String.format(Locale.ROOT, "%.2f", x);
    }

    private static String pct(double x) {
        return Double.isNaN(x) ? "never" : String.format(Locale.ROOT, "%.1f%%", 100 * x);
    }
}
