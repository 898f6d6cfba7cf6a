package dev.sparseprof.perfmodel;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigLoader;
import dev.sparseprof.config.ConfigMap;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.hw.GpuSpec;
import dev.sparseprof.hw.HardwareSpec;
import dev.sparseprof.hw.HardwareSpecs;
import dev.sparseprof.hw.Runtimes;
import dev.sparseprof.sparse.Formats;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.SparseprofException;
import dev.sparseprof.util.Units;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Published sparse-vs-dense measurements (YAML files under {@code validation/published/}, version 2)
 * and the model's predictions for them, side by side. A case is one GEMM on a shipped spec under a
 * named runtime ({@code runtime:} as in a spec: a preset plus overrides): its published dense time,
 * 2:4 time, speedup or speedup range, each compared with the prediction ({@code kind: speedup}, the
 * default), or the sparsity from which a format beats dense ({@code kind: crossover}: uniform, or
 * {@code pattern: block} for whole blocks of a BSR format's shape; the mean over its GEMMs). Every
 * case names its reference id ({@code ref}), its group and its source. Cases are split for fitting
 * by {@link #fitHalf}: a fixed function of the ref, so a parameter fitted on the fit half is judged
 * on the check half.
 */
public final class PublishedCases {
    /**
     * One compared figure. {@code error} is relative ((predicted - published) / published) or, for
     * sparsities, in points; {@code publishedValue} / {@code predictedValue} in seconds, x or a
     * fraction ({@code unit}: {@code s}, {@code x}, {@code sparsity}); for a speedup range the
     * published value is its middle. {@code publishedFaster} / {@code predictedFaster}: the sign of
     * a speedup row (2:4 faster than dense), null on other rows.
     */
    public record Row(String caseName, String metric, String published, String predicted, double error, String source, String group,
                      boolean fit, double publishedValue, double predictedValue, String unit, Boolean publishedFaster,
                      Boolean predictedFaster) {}

    /** A group's summary: MAPE (percent) and count of each figure kind, and the speedups whose sign the model gets right. */
    public record Summary(String group, double denseMape, int denseCount, double sparseMape, int sparseCount, double speedupMape,
                          int speedupCount, int signAgreed, int signCount) {
        public double signAgreement() {
            return signCount == 0 ? Double.NaN : (double) signAgreed / signCount;
        }
    }

    static final String DENSE_TIME = "dense time";
    static final String SPARSE_TIME = "2:4 time";
    static final String SPEEDUP = "2:4 speedup";
    static final String SPEEDUP_RANGE = "2:4 speedup range";

    static final int VERSION = 2;
    private static final String[] CASE_KEYS = {"ref", "group", "kind", "source", "spec", "runtime", "dtype", "format", "gemm", "gemms",
        "pattern", "denseTime", "sparseTime", "speedup", "speedupLow", "speedupHigh", "crossoverSparsity"};
    private static final String[] LEGACY_KEYS = {"name", "kind", "source", "spec", "dtype", "format", "gemms", "pattern", "denseTime",
        "sparseTime", "speedup", "speedupLow", "speedupHigh", "crossoverSparsity"};

    private PublishedCases() {}

    /** The fixed split: CRC32 of the ref (UTF-8), even = fit half, odd = check half. */
    public static boolean fitHalf(String ref) {
        CRC32 crc = new CRC32();
        crc.update(ref.getBytes(StandardCharsets.UTF_8));
        return crc.getValue() % 2 == 0;
    }

    public static List<Row> evaluate(Path file) {
        try {
            ConfigMap root;
            try {
                root = load(file, VERSION);
            } catch (ConfigException e) {
                if (!e.getMessage().contains("version: is 1,")) throw e;
                root = load(file, 1);
            }
            root.allow("version", "cases");
            boolean legacy = root.count("version") == 1;
            String legacyGroup = "published " + file.getFileName();
            List<Row> rows = new ArrayList<>();
            for (ConfigMap c : root.list("cases")) rows.addAll(evaluate(c.allow(legacy ? LEGACY_KEYS : CASE_KEYS), legacy, legacyGroup));
            return rows;
        } catch (ConfigException e) {
            throw new SparseprofException(e.getMessage(), e);
        }
    }

    private static ConfigMap load(Path file, int version) {
        return ConfigLoader.load(ConfigSource.of(file), (p, from) -> {
            throw new ConfigException(from.shortName() + ": preset: not supported in a validation file");
        }, version);
    }

    /**
     * One case. Version 2: {@code ref}, {@code group}, {@code runtime}, one {@code gemm} (a crossover
     * may give {@code gemms}: the mean of their crossovers). Version 1 (the first layout, still
     * read): {@code name} for the ref, the file's name for the group, {@code gemms} with counts (a
     * speedup sums their times), the spec's own runtime.
     */
    private static List<Row> evaluate(ConfigMap c, boolean legacy, String legacyGroup) {
        String ref = c.string(legacy ? "name" : "ref");
        String group = legacy ? legacyGroup : c.string("group");
        String source = c.string("source");
        boolean fit = fitHalf(ref);
        HardwareSpec spec = HardwareSpecs.load(c.string("spec"));
        if (c.has("runtime")) {
            if (!(spec instanceof GpuSpec g)) throw c.error("runtime", "a runtime needs a GPU spec, " + spec.source() + " is a CPU spec");
            spec = g.withRuntime(Runtimes.read(c.map("runtime")));
        }
        DType dtype = c.parse("dtype", DType::parse, SparseprofException.class);
        PerfModel model = new PerfModel(spec, TrafficModel.ANALYTICAL);
        List<ConfigMap> gemms = c.has("gemm") || !c.has("gemms") ? List.of(c.map("gemm")) : c.list("gemms");
        List<Row> rows = new ArrayList<>();
        String kind = c.string("kind", "speedup");
        switch (kind) {
            case "speedup" -> {
                double dense = 0;
                double sparse = 0;
                for (ConfigMap g : gemms) {
                    g.allow("m", "k", "n", "count");
                    Workload w = Workload.uniformSparse(ref, g.positiveInt("m"), g.positiveInt("k"), g.positiveInt("n"), dtype, 0.5, true);
                    LayerEstimate e = model.estimate(w, FormatModels.byName(Formats.ampereFor(dtype).name()));
                    int count = g.positiveInt("count", 1);
                    dense += count * e.denseSeconds();
                    sparse += count * e.predictedSeconds();
                }
                double speedup = dense / sparse;
                double pubDense = c.has("denseTime") ? seconds(c, "denseTime") : Double.NaN;
                double pubSparse = c.has("sparseTime") ? seconds(c, "sparseTime") : Double.NaN;
                if (c.has("denseTime")) rows.add(time(ref, DENSE_TIME, pubDense, dense, source, group, fit));
                if (c.has("sparseTime")) rows.add(time(ref, SPARSE_TIME, pubSparse, sparse, source, group, fit));
                if (c.has("speedupLow")) {
                    double lo = c.number("speedupLow");
                    double hi = c.number("speedupHigh");
                    if (!(lo > 0 && hi >= lo)) throw c.error("speedupHigh", "the range must be positive and low <= high");
                    double err = speedup < lo ? (speedup - lo) / lo : speedup > hi ? (speedup - hi) / hi : 0;
                    rows.add(new Row(ref, SPEEDUP_RANGE, fmt(lo) + "-" + fmt(hi) + "x", fmt(speedup) + "x", err, source, group, fit,
                            (lo + hi) / 2, speedup, "x", signOf(lo, hi), speedup > 1));
                } else {
                    double pub = c.has("speedup") ? c.number("speedup") : pubDense / pubSparse;
                    if (Double.isFinite(pub)) {
                        rows.add(new Row(ref, SPEEDUP, fmt(pub) + "x" + (c.has("speedup") ? "" : " (computed)"), fmt(speedup) + "x",
                                (speedup - pub) / pub, source, group, fit, pub, speedup, "x", pub > 1, speedup > 1));
                    }
                }
            }
            case "crossover" -> {
                // Over several GEMMs (a source's sweep of shapes), the mean of their crossovers.
                FormatModel format = FormatModels.byName(c.string("format"));
                boolean block = c.string("pattern", "unstructured").equals("block");
                double predicted = 0;
                for (ConfigMap g : gemms) {
                    g.allow("m", "k", "n", "count");
                    predicted += crossover(model, format, g.positiveInt("m"), g.positiveInt("k"), g.positiveInt("n"), dtype, block) / gemms.size();
                }
                double pub = c.number("crossoverSparsity");
                rows.add(new Row(ref, format.name() + " beats dense from sparsity", pct(pub), pct(predicted), predicted - pub, source, group,
                        fit, pub, predicted, "sparsity", null, null));
            }
            default -> throw c.error("kind", "must be speedup or crossover, got '" + kind + "'");
        }
        return rows;
    }

    /**
     * Per group, in the order groups first appear (with its check half when it has both halves),
     * then the A100 and H100 groups together and their check half.
     */
    public static List<Summary> summarize(List<Row> rows) {
        Map<String, List<Row>> byGroup = new LinkedHashMap<>();
        for (Row r : rows) byGroup.computeIfAbsent(r.group(), x -> new ArrayList<>()).add(r);
        List<Summary> out = new ArrayList<>();
        for (Map.Entry<String, List<Row>> e : byGroup.entrySet()) {
            out.add(summary(e.getKey(), e.getValue()));
            List<Row> check = new ArrayList<>();
            for (Row r : e.getValue()) if (!r.fit()) check.add(r);
            if (!check.isEmpty() && check.size() < e.getValue().size()) out.add(summary(e.getKey() + ", check half", check));
        }
        for (String gpu : new String[] {"A100", "H100"}) {
            List<Row> all = new ArrayList<>();
            List<Row> check = new ArrayList<>();
            for (Row r : rows) {
                if (!r.group().startsWith(gpu)) continue;
                all.add(r);
                if (!r.fit()) check.add(r);
            }
            if (all.isEmpty()) continue;
            out.add(summary("all " + gpu + " groups", all));
            out.add(summary("all " + gpu + " groups, check half", check));
        }
        return out;
    }

    private static Summary summary(String group, List<Row> rows) {
        double[] sum = new double[3];
        int[] count = new int[3];
        int agreed = 0;
        int signs = 0;
        for (Row r : rows) {
            int kind = switch (r.metric()) {
                case DENSE_TIME -> 0;
                case SPARSE_TIME -> 1;
                case SPEEDUP -> 2;
                default -> -1;
            };
            if (kind >= 0 && Double.isFinite(r.error())) {
                sum[kind] += Math.abs(r.error()) * 100;
                count[kind]++;
            }
            if (r.publishedFaster() != null) {
                signs++;
                if (r.publishedFaster().equals(r.predictedFaster())) agreed++;
            }
        }
        return new Summary(group, mean(sum[0], count[0]), count[0], mean(sum[1], count[1]), count[1], mean(sum[2], count[2]), count[2],
                agreed, signs);
    }

    private static double mean(double sum, int n) {
        return n == 0 ? Double.NaN : sum / n;
    }

    private static Boolean signOf(double lo, double hi) {
        if (lo > 1) return true;
        if (hi < 1) return false;
        return null;
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
        double s = c.parse(key, Units::parseSeconds, SparseprofException.class);
        if (!(s > 0)) throw c.error(key, "must be positive");
        return s;
    }

    private static Row time(String name, String metric, double published, double predicted, String source, String group, boolean fit) {
        return new Row(name, metric, Units.formatSeconds(published), Units.formatSeconds(predicted), (predicted - published) / published, source,
                group, fit, published, predicted, "s", null, null);
    }

    private static String fmt(double x) {
        return String.format(Locale.ROOT, "%.2f", x);
    }

    private static String pct(double x) {
        return Double.isNaN(x) ? "never" : String.format(Locale.ROOT, "%.1f%%", 100 * x);
    }
}
