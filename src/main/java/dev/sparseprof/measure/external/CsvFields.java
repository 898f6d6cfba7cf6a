package dev.sparseprof.measure.external;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of RFC 4180 CSV into fields: quoted fields may hold the separator and doubled
 * quotes. Both tools this package imports write one record per line, so a quote left open at the end
 * of the line is an error, not a continuation.
 */
final class CsvFields {
    private CsvFields() {}

    /** The fields of {@code line}; throws when a quoted field is not closed. */
    static List<String> split(String line, String source, int lineNumber) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < n && line.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
            i++;
        }
        if (quoted) throw new ExternalFormatException(source, lineNumber, "a quoted field is not closed");
        fields.add(field.toString());
        return fields;
    }
}
