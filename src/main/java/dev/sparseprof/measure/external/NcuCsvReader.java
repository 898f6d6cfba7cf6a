package dev.sparseprof.measure.external;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads Nsight Compute's {@code ncu --csv} long format: one row per (launch, metric). Columns are
 * found by header name, never by position, so the layouts of different ncu versions all read: the
 * current one ({@code "ID","Process ID",...,"Block Size","Grid Size","Device","CC","Section Name",
 * "Metric Name","Metric Unit","Metric Value"}), the older one with {@code "Kernel Time"}, rows with
 * rule columns (rule-only rows, which have no metric name, are skipped), NVTX columns, and
 * {@code --print-summary per-kernel} (its {@code "Average"} column stands for the value). Lines that
 * start with {@code ==} ({@code ==PROF==}, {@code ==WARNING==}) are skipped; {@code 1,234,567}
 * loses its thousands separators; {@code n/a} becomes NaN.
 */
public final class NcuCsvReader {
    private static final long MAX_FILE_BYTES = 256L << 20;
    private static final Pattern THOUSANDS = Pattern.compile("-?\\d{1,3}(,\\d{3})+(\\.\\d+)?");

    private NcuCsvReader() {}

    public static NcuReport read(Path file) {
        String text;
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) throw new ExternalFormatException(file.toString(), size + " bytes is too large for an ncu report");
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ExternalFormatException(file.toString(), "cannot read (" + e.getMessage() + ")");
        }
        return parse(file.toString(), text);
    }

    public static NcuReport parse(String source, String text) {
        String[] lines = text.split("\r?\n", -1);
        Columns cols = null;
        Map<String, LaunchBuilder> launches = new LinkedHashMap<>();
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank() || line.startsWith("==")) continue;
            List<String> f = CsvFields.split(line, source, i + 1);
            if (cols == null) {
                cols = Columns.of(f, source, i + 1);
                continue;
            }
            if (f.size() != cols.count) {
                throw new ExternalFormatException(source, i + 1, "row has " + f.size() + " fields, the header " + cols.count);
            }
            String metric = f.get(cols.metricName).strip();
            if (metric.isEmpty()) continue; // a rule's row: no metric
            long id = cols.id < 0 ? -1 : parseId(f.get(cols.id), source, i + 1);
            String kernel = f.get(cols.kernelName).strip();
            String key = id + "\u0000" + kernel;
            LaunchBuilder b = launches.get(key);
            if (b == null) {
                b = new LaunchBuilder(id, kernel, cols.get(f, cols.blockSize), cols.get(f, cols.gridSize));
                launches.put(key, b);
            }
            String raw = f.get(cols.value).strip();
            b.metrics.putIfAbsent(metric, new NcuMetric(metric, cols.get(f, cols.unit), number(raw), raw));
        }
        if (cols == null) throw new ExternalFormatException(source, "empty: no ncu --csv header line");
        List<NcuLaunch> out = new ArrayList<>(launches.size());
        for (LaunchBuilder b : launches.values()) out.add(b.build());
        return new NcuReport(source, out);
    }

    /** The number in an ncu value cell, NaN for {@code n/a} and for text. */
    static double number(String raw) {
        String t = raw.strip();
        if (t.isEmpty() || t.equalsIgnoreCase("n/a")) return Double.NaN;
        if (THOUSANDS.matcher(t).matches()) t = t.replace(",", "");
        try {
            double v = Double.parseDouble(t);
            return Double.isFinite(v) ? v : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static long parseId(String s, String source, int line) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            throw new ExternalFormatException(source, line, "launch ID '" + s + "' is not an integer");
        }
    }

    /** Column positions found in the header; -1 for an optional column that is absent. */
    private record Columns(int count, int id, int kernelName, int blockSize, int gridSize, int metricName, int unit, int value) {
        static Columns of(List<String> header, String source, int line) {
            Map<String, Integer> at = new HashMap<>();
            for (int i = 0; i < header.size(); i++) at.putIfAbsent(header.get(i).strip(), i);
            int kernel = at.getOrDefault("Kernel Name", -1);
            int metric = at.getOrDefault("Metric Name", -1);
            int value = at.getOrDefault("Metric Value", at.getOrDefault("Average", -1));
            if (kernel < 0 || metric < 0 || value < 0) {
                throw new ExternalFormatException(source, line, "not an ncu --csv header: need columns \"Kernel Name\", "
                        + "\"Metric Name\" and \"Metric Value\" (or \"Average\"); is it the long format (not --page raw)?");
            }
            return new Columns(header.size(), at.getOrDefault("ID", -1), kernel, at.getOrDefault("Block Size", -1),
                    at.getOrDefault("Grid Size", -1), metric, at.getOrDefault("Metric Unit", -1), value);
        }

        String get(List<String> f, int column) {
            return column < 0 ? "" : f.get(column).strip();
        }
    }

    private static final class LaunchBuilder {
        final long id;
        final String kernel;
        final String block;
        final String grid;
        final Map<String, NcuMetric> metrics = new LinkedHashMap<>();

        LaunchBuilder(long id, String kernel, String block, String grid) {
            this.id = id;
            this.kernel = kernel;
            this.block = block;
            this.grid = grid;
        }

        NcuLaunch build() {
            return new NcuLaunch(id, kernel, block, grid, metrics);
        }
    }
}
