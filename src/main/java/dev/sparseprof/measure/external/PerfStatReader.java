package dev.sparseprof.measure.external;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the machine-readable output of {@code perf stat -x, -e EVENTS -- CMD} (perf writes it to
 * standard error, or to {@code -o FILE}). Each line is {@code value,unit,event[,variance%],run-time,
 * percentage[,metric-value,metric-unit]}; {@code #} lines (the {@code -o} header) and blank lines are
 * skipped. {@code <not supported>} and {@code <not counted>} become a {@link CounterStatus}, never a
 * zero. Interval ({@code -I}) and per-core ({@code -A}, {@code --per-*}) layouts are refused with a
 * line saying so.
 */
public final class PerfStatReader {
    private static final long MAX_FILE_BYTES = 16L << 20;

    private PerfStatReader() {}

    public static PerfStatReport read(Path file) {
        String text;
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new ExternalFormatException(file.toString(), size + " bytes is too large for perf stat output");
            }
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ExternalFormatException(file.toString(), "cannot read (" + e.getMessage() + ")");
        }
        return parse(file.toString(), text);
    }

    public static PerfStatReport parse(String source, String text) {
        List<PerfCounter> counters = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            counters.add(parseLine(line, source, i + 1));
        }
        return new PerfStatReport(source, counters);
    }

    private static PerfCounter parseLine(String line, String source, int lineNo) {
        List<String> f = CsvFields.split(line, source, lineNo);
        if (f.size() < 3) {
            throw new ExternalFormatException(source, lineNo,
                    "expected 'value,unit,event,...' (perf stat -x, output), got '" + abbreviate(line) + "'");
        }
        if (isNumber(f.get(0)) && (isNumber(f.get(1)) || f.get(1).startsWith("<"))) {
            throw new ExternalFormatException(source, lineNo, "interval output (perf stat -I) is not supported; run without -I");
        }
        String rawValue = f.get(0).strip();
        String event = f.get(2).strip();
        if (event.isEmpty()) throw new ExternalFormatException(source, lineNo, "empty event name");
        CounterStatus status;
        double value = Double.NaN;
        switch (rawValue) {
            case "<not supported>" -> status = CounterStatus.NOT_SUPPORTED;
            case "<not counted>" -> status = CounterStatus.NOT_COUNTED;
            default -> {
                if (!isNumber(rawValue)) {
                    throw new ExternalFormatException(source, lineNo, "'" + rawValue + "' is not a counter value"
                            + " (per-core or per-socket output, -A/--per-*, is not supported)");
                }
                value = Double.parseDouble(rawValue);
                if (!(value >= 0) || Double.isInfinite(value)) {
                    throw new ExternalFormatException(source, lineNo, "counter value " + rawValue + " is not a count");
                }
                status = CounterStatus.COUNTED;
            }
        }
        int next = 3;
        if (f.size() > next && f.get(next).strip().endsWith("%")) next++; // --repeat adds the variance
        long runTime = -1;
        if (f.size() > next && !f.get(next).isBlank()) {
            try {
                runTime = Long.parseLong(f.get(next).strip());
            } catch (NumberFormatException e) {
                throw new ExternalFormatException(source, lineNo, "run-time field '" + f.get(next) + "' is not an integer");
            }
        }
        next++;
        double pct = Double.NaN;
        if (f.size() > next && !f.get(next).isBlank()) {
            if (!isNumber(f.get(next))) {
                throw new ExternalFormatException(source, lineNo, "percentage field '" + f.get(next) + "' is not a number");
            }
            pct = Double.parseDouble(f.get(next).strip());
        }
        return new PerfCounter(event, value, f.get(1).strip(), status, runTime, pct);
    }

    private static boolean isNumber(String s) {
        String t = s.strip();
        if (t.isEmpty()) return false;
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+')) return false;
        }
        try {
            Double.parseDouble(t);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
