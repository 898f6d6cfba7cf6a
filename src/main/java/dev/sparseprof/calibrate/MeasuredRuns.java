package dev.sparseprof.calibrate;

import dev.sparseprof.util.Json;
import dev.sparseprof.util.SparseprofException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The measurements JSON of {@code sparseprof measure} as the calibration reads it: the header
 * ({@code model}, {@code machine}, {@code date}, {@code command}, and {@code device} when the GPU
 * runner wrote it) and, per result, the keys the fit needs. Every fault names the file, the result
 * index and the key.
 *
 * @param device {@code cpu} unless the file says {@code gpu}
 */
public record MeasuredRuns(String source, String model, String machine, String date, String command, String device,
                           List<MeasuredRun> runs) {
    private static final long MAX_BYTES = 64L << 20;

    public MeasuredRuns {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) throw new SparseprofException(source + ": no results");
    }

    public static MeasuredRuns read(Path file) {
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) throw new SparseprofException(file + ": larger than 64 MiB, not a measurements file");
            text = Files.readString(file);
        } catch (IOException e) {
            throw new SparseprofException(file + ": cannot read (" + e.getMessage() + ")");
        }
        return parse(file.toString(), text);
    }

    public static MeasuredRuns parse(String source, String text) {
        Map<String, Object> root;
        try {
            root = Json.parseObject(text);
        } catch (SparseprofException e) {
            throw new SparseprofException(source + ": " + e.getMessage());
        }
        String device = root.get("device") instanceof String d ? d : "cpu";
        Object results = root.get("results");
        if (!(results instanceof List<?> list)) throw new SparseprofException(source + ": 'results' must be a list");
        List<MeasuredRun> runs = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String where = source + ": results[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) throw new SparseprofException(where + " is not an object");
            runs.add(new MeasuredRun(string(m, "layer", where), string(m, "format", where), (int) integer(m, "batch", where),
                    m.get("threads") == null ? 1 : (int) integer(m, "threads", where), (int) integer(m, "rows", where),
                    (int) integer(m, "cols", where), integer(m, "nnz", where), number(m, "sparsity", where),
                    number(m, "medianSeconds", where)));
        }
        return new MeasuredRuns(source, string(root, "model", source), string(root, "machine", source),
                string(root, "date", source), string(root, "command", source), device, runs);
    }

    private static Object get(Map<?, ?> m, String key, String where) {
        if (!m.containsKey(key)) throw new SparseprofException(where + ": missing key '" + key + "'");
        return m.get(key);
    }

    private static String string(Map<?, ?> m, String key, String where) {
        if (get(m, key, where) instanceof String s) return s;
        throw new SparseprofException(where + ": '" + key + "' must be a string");
    }

    private static double number(Map<?, ?> m, String key, String where) {
        if (get(m, key, where) instanceof Number n) return n.doubleValue();
        throw new SparseprofException(where + ": '" + key + "' must be a number");
    }

    private static long integer(Map<?, ?> m, String key, String where) {
        if (get(m, key, where) instanceof Long l) return l;
        throw new SparseprofException(where + ": '" + key + "' must be an integer");
    }
}
