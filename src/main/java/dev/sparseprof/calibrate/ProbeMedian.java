package dev.sparseprof.calibrate;

import dev.sparseprof.config.ConfigException;
import dev.sparseprof.config.ConfigSource;
import dev.sparseprof.config.SafeYaml;
import dev.sparseprof.util.Median;
import dev.sparseprof.util.SparseprofException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One spec from several probes of one machine ({@code calibrate --median}): every measured number is
 * the median of the probes' (the middle one of an odd count, the mean of the middle two of an even
 * one), every other value the same in all of them. A single probe on a shared VM can draw one broken
 * rate that its rounds do not repair: on the Zen 4 VM (7 Dec 2026) one JVM read the csr 4-vector block
 * at 1.50 ns where its other probes read 1.06-1.11, in all four rounds, and another read the dense
 * micro-kernel at 0.73 cycles per vector FMA, below the FMA peak, where the others read 1.03-1.13; a
 * median of probes in separate JVMs keeps neither.
 *
 * <p>Contract: the files are probe overlays ({@code calibrate --probe} output: a {@code cpu.inCore}
 * section) of one CPU model at one SIMD width over one preset, with the same keys and list lengths,
 * except the one-column bodies' rates ({@link #OPTIONAL}), which a probe leaves out where their
 * slope solved to 0: each of those is the median of the probes that have it. Anything else is
 * refused in one line naming the file and the key.
 */
public final class ProbeMedian {
    /** A number with its unit, as specs write them ({@code 113.2GB/s}, {@code 9.66cycles}, {@code 0.696}). */
    private static final Pattern QUANTITY = Pattern.compile("([-+]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?)([A-Za-z/]*)");

    /**
     * {@code cpu.inCore} keys a probe may leave out ({@code hw.OneColumnRates}: a body whose per-unit
     * slope solved to 0 or below is not written), each the median of the probes that have it.
     */
    static final Set<String> OPTIONAL = Set.of("spmvVector", "spmvRow", "spmvTail", "gemvFma", "gemvRow", "gemvL2", "gemvL3", "sellSlot",
        "sellChunk", "sellTranspose");
    private static final String IN_CORE = "cpu.inCore";

    private ProbeMedian() {}

    /**
     * The median overlay of {@code files}; its {@code preset:} is written relative to {@code outDir}
     * where the probes name a file.
     */
    public static Result of(List<Path> files, Path outDir) {
        if (files.size() < 2) throw new SparseprofException("calibrate --median: give two or more probed specs, got " + files.size());
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Path f : files) {
            if (!Files.isRegularFile(f)) throw new SparseprofException(f + ": no such file");
            Map<String, Object> d;
            try {
                d = SafeYaml.parse(ConfigSource.of(f));
            } catch (ConfigException e) {
                throw new SparseprofException(e.getMessage(), e);
            }
            if (!(d.get("cpu") instanceof Map<?, ?> cpu) || !cpu.containsKey("inCore")) {
                throw new SparseprofException(f + ": not a probed spec (no cpu.inCore section; calibrate --probe writes one)");
            }
            docs.add(d);
        }
        String preset = preset(files.get(0), docs.get(0), outDir);
        for (int i = 1; i < files.size(); i++) {
            String other = preset(files.get(i), docs.get(i), outDir);
            if (!other.equals(preset)) throw new SparseprofException(files.get(i) + ": over preset " + other + ", " + files.get(0) + " over " + preset);
        }
        Map<String, Object> merged = new LinkedHashMap<>();
        List<String> apart = new ArrayList<>();
        for (String key : docs.get(0).keySet()) {
            if (key.equals("version") || key.equals("preset")) continue;
            List<Object> values = new ArrayList<>();
            for (Map<String, Object> d : docs) values.add(d.get(key));
            merged.put(key, merge(key, values, files, apart));
        }
        for (int i = 1; i < docs.size(); i++) {
            for (String key : docs.get(i).keySet()) {
                if (!docs.get(0).containsKey(key)) throw new SparseprofException(files.get(i) + ": has '" + key + "', " + files.get(0) + " has not");
            }
        }
        List<String> header = new ArrayList<>();
        header.add("Median of " + files.size() + " probes by sparseprof calibrate --median (each measured number the median of the probes')");
        for (Path f : files) header.add("probe: " + f);
        Map<String, String> comments = new LinkedHashMap<>();
        comments.put("cpu.inCore", "medians of the probes' rates; each probe's notes are in its file");
        return new Result(new SpecOverlay(preset, header, merged, comments), apart);
    }

    /**
     * The median overlay, and {@code apart}: each value of a probe more than {@link #APART} from its
     * median ({@code cpu.inCore.block4 1.5 in p1.yaml, median 1.08}), the draws the median left out.
     */
    public record Result(SpecOverlay overlay, List<String> apart) {}

    /** How far from its median a probe's value is reported ({@link Result#apart}): 15 %. */
    static final double APART = 0.15;

    /** The probe's {@code preset:} as seen from {@code outDir}: a file next to the probe, relativized; a preset name as it is. */
    private static String preset(Path file, Map<String, Object> doc, Path outDir) {
        Object p = doc.get("preset");
        if (!(p instanceof String s)) throw new SparseprofException(file + ": no preset: line (a probe overlay names the spec it overrides)");
        Path dir = file.toAbsolutePath().getParent();
        Path candidate = dir.resolve(s).normalize();
        if (!Files.isRegularFile(candidate)) return s;
        return outDir.toAbsolutePath().normalize().relativize(candidate).toString();
    }

    @SuppressWarnings("unchecked")
    private static Object merge(String key, List<Object> values, List<Path> files, List<String> apart) {
        Object first = values.get(0);
        for (int i = 1; i < values.size(); i++) {
            Object v = values.get(i);
            if (first == null || v == null || kind(v) != kind(first)) {
                throw new SparseprofException(files.get(i) + ": '" + key + "' is " + describe(v) + ", in " + files.get(0) + " " + describe(first));
            }
        }
        if (first instanceof Map<?, ?> m) {
            Set<Object> keys = new LinkedHashSet<>(m.keySet());
            for (Object v : values) keys.addAll(((Map<?, ?>) v).keySet());
            for (int i = 0; i < values.size(); i++) {
                Set<?> own = ((Map<?, ?>) values.get(i)).keySet();
                for (Object k : keys) {
                    if (!own.contains(k) && !(key.equals(IN_CORE) && OPTIONAL.contains(k))) {
                        throw new SparseprofException(files.get(i) + ": '" + key + "' has keys " + own + ", "
                                + files.get(i == 0 ? 1 : 0) + " " + ((Map<?, ?>) values.get(i == 0 ? 1 : 0)).keySet() + " (probed by different builds?)");
                    }
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object k : keys) {
                List<Object> inner = new ArrayList<>();
                List<Path> from = new ArrayList<>();
                for (int i = 0; i < values.size(); i++) {
                    Object v = ((Map<String, Object>) values.get(i)).get(k);
                    if (v == null && ((Map<?, ?>) values.get(i)).containsKey(k)) throw new SparseprofException(files.get(i) + ": '" + key + "." + k + "' is empty");
                    if (v != null) {
                        inner.add(v);
                        from.add(files.get(i));
                    }
                }
                out.put((String) k, merge(key + "." + k, inner, from, apart));
            }
            return out;
        }
        if (first instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (int i = 1; i < values.size(); i++) {
                if (((List<?>) values.get(i)).size() != l.size()) {
                    throw new SparseprofException(files.get(i) + ": '" + key + "' has " + ((List<?>) values.get(i)).size() + " items, "
                            + files.get(0) + " " + l.size());
                }
            }
            for (int j = 0; j < l.size(); j++) {
                List<Object> inner = new ArrayList<>();
                for (Object v : values) inner.add(((List<?>) v).get(j));
                out.add(merge(key + "[" + j + "]", inner, files, apart));
            }
            return out;
        }
        return medianScalar(key, values, files, apart);
    }

    /**
     * Keys that say which machine, width and geometry a probe is of, not what it measured: they must
     * be the same in every probe (by the key's last part).
     */
    private static final Set<String> IDENTITY = Set.of("simdWidth", "vectorBits", "model", "cores", "size", "ways", "line",
            "latency", "shared", "name", "gatherThreads", "fmaPorts", "l1Reuse", "nmDecode", "teamThreads", "teamCores");

    /** The same string in every probe, else (a measured number) the median of numbers of one unit. */
    private static String medianScalar(String key, List<Object> values, List<Path> files, List<String> apart) {
        String first = String.valueOf(values.get(0));
        if (values.stream().allMatch(v -> Objects.equals(String.valueOf(v), first))) return first;
        String last = key.substring(key.lastIndexOf('.') + 1).replaceAll("\\[\\d+\\]$", "");
        if (IDENTITY.contains(last)) {
            for (int i = 1; i < values.size(); i++) {
                if (!Objects.equals(String.valueOf(values.get(i)), first)) {
                    throw new SparseprofException(files.get(i) + ": '" + key + "' is '" + values.get(i) + "', in " + files.get(0) + " '" + first
                            + "' (probes of one machine at one width, by one build)");
                }
            }
        }
        double[] numbers = new double[values.size()];
        String unit = null;
        for (int i = 0; i < values.size(); i++) {
            Matcher m = QUANTITY.matcher(String.valueOf(values.get(i)).strip());
            if (!m.matches()) {
                throw new SparseprofException(files.get(i) + ": '" + key + "' is '" + values.get(i) + "', in " + files.get(0) + " '" + first
                        + "' (a text that must be the same in every probe: one machine, one width, one build)");
            }
            if (unit == null) unit = m.group(2);
            else if (!unit.equals(m.group(2))) {
                throw new SparseprofException(files.get(i) + ": '" + key + "' is in " + m.group(2) + ", in " + files.get(0) + " in " + unit);
            }
            numbers[i] = Double.parseDouble(m.group(1));
        }
        double median = Median.of(numbers);
        for (int i = 0; i < numbers.length; i++) {
            if (median != 0 && Math.abs(numbers[i] / median - 1) > APART) {
                apart.add(key + " " + compact(numbers[i]) + unit + " in " + files.get(i) + ", median " + compact(median) + unit);
            }
        }
        boolean integral = values.stream().allMatch(v -> String.valueOf(v).strip().matches("[-+]?[0-9]+[A-Za-z/]*"));
        return (integral && median == Math.rint(median) ? Long.toString((long) median) : String.format(Locale.ROOT, "%.6g", median).strip()) + unit;
    }

    /** Four significant digits, no trailing zeros ({@code 6.5}, {@code 113.2}). */
    private static String compact(double x) {
        return new BigDecimal(String.format(Locale.ROOT, "%.4g", x)).stripTrailingZeros().toPlainString();
    }

    /** 0 a mapping, 1 a list, 2 a scalar. */
    private static int kind(Object v) {
        return v instanceof Map ? 0 : v instanceof List ? 1 : 2;
    }

    private static String describe(Object v) {
        return v == null ? "missing" : v instanceof Map ? "a mapping" : v instanceof List ? "a list" : "'" + v + "'";
    }
}
