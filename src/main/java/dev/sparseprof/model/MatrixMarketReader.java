package dev.sparseprof.model;

import dev.sparseprof.util.MatrixView;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Matrix Market {@code .mtx} files (NIST's exchange format): {@code coordinate} (1-based
 * {@code i j [value]} lines) or {@code array} (values column by column); {@code real},
 * {@code integer} or {@code pattern} (every entry 1); {@code general}, {@code symmetric} or
 * {@code skew-symmetric} (only the lower triangle is stored and is mirrored). The matrix is one
 * {@link LayerKind#LINEAR} layer named after the file, in the file's orientation.
 *
 * <p>Memory follows what the file holds: the size line's entry count is checked against the bytes
 * left (every entry takes at least 4 bytes: {@code "1 1\n"}) before arrays are sized, and
 * coordinate matrices are kept as their non-zeros ({@link SparseRowsView}), whose row index and the
 * profile's per-column counts still take memory per row and column: a coordinate file's rows and
 * columns are each bounded by {@value #MIN_DIMENSION_BOUND} or {@value #DIMENSIONS_PER_BYTE} per byte of the
 * file, whichever is larger, so a {@code 2000000000 2000000000 1} size line in a 60-byte file is
 * refused before anything is sized. A lying size line, an
 * index out of range, a bad number, too few or too many entries are errors naming the line.
 */
final class MatrixMarketReader implements ModelReader {
    /** Rows or columns any coordinate file may have, however small (an 8 MB row index). */
    static final long MIN_DIMENSION_BOUND = 1 << 20;
    /** Rows or columns per byte of the file beyond {@link #MIN_DIMENSION_BOUND}. */
    static final long DIMENSIONS_PER_BYTE = 8;

    @Override
    public String name() {
        return "mtx";
    }

    @Override
    public boolean accepts(Path file) {
        return ModelFiles.nameEndsWith(file, ".mtx");
    }

    @Override
    public Model read(Path file) {
        String source = file.toString();
        long fileBytes = ModelFiles.size(file);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            Parser p = new Parser(source, in);
            MatrixView view = p.parse(fileBytes);
            String name = file.getFileName().toString().replaceFirst("(?i)\\.mtx$", "");
            GemmLayer layer = new GemmLayer(name, name, LayerKind.LINEAR, view.rows(), view.cols(), 1, view);
            return new Model(source, "mtx", List.of(), List.of(layer), Map.of("format", "mtx", "mtx_header", p.banner), null);
        } catch (MalformedInputException e) {
            throw ModelFormatException.in(source, "not ASCII text");
        } catch (IOException e) {
            throw ModelFormatException.in(source, "cannot read (" + e.getMessage() + ")");
        }
    }

    /** One pass over the lines; {@code line} is the current line number for messages. */
    private static final class Parser {
        private final String source;
        private final BufferedReader in;
        private int line;
        private long bytesRead;
        String banner = "";

        Parser(String source, BufferedReader in) {
            this.source = source;
            this.in = in;
        }

        MatrixView parse(long fileBytes) throws IOException {
            String first = nextRaw();
            if (first == null || !first.toLowerCase(Locale.ROOT).startsWith("%%matrixmarket")) {
                throw fault("not a Matrix Market file (no %%MatrixMarket banner)");
            }
            banner = first.strip();
            String[] b = banner.toLowerCase(Locale.ROOT).split("\\s+");
            if (b.length != 5 || !b[1].equals("matrix")) throw fault("banner must be '%%MatrixMarket matrix FORMAT FIELD SYMMETRY'");
            boolean coordinate = switch (b[2]) {
                case "coordinate" -> true;
                case "array" -> false;
                default -> throw fault("unknown format '" + b[2] + "' (coordinate, array)");
            };
            String field = b[3];
            if (!List.of("real", "integer", "pattern").contains(field)) throw fault("unsupported field '" + field + "' (real, integer, pattern)");
            if (field.equals("pattern") && !coordinate) throw fault("pattern needs the coordinate format");
            String symmetry = b[4];
            if (!List.of("general", "symmetric", "skew-symmetric").contains(symmetry)) {
                throw fault("unsupported symmetry '" + symmetry + "' (general, symmetric, skew-symmetric)");
            }
            String[] size = tokens(nextData(), "size line");
            int rows = dimension(size, 0);
            int cols = dimension(size, 1);
            boolean mirrored = !symmetry.equals("general");
            if (mirrored && rows != cols) throw fault(symmetry + " matrix must be square, size line says " + rows + "x" + cols);
            long left = fileBytes - bytesRead;
            return coordinate ? coordinate(size, rows, cols, field.equals("pattern"), symmetry, left) : array(rows, cols, symmetry, left);
        }

        private MatrixView coordinate(String[] size, int rows, int cols, boolean pattern, String symmetry, long bytesLeft) throws IOException {
            if (size.length != 3) throw fault("coordinate size line needs 'rows cols entries'");
            long entries = number(size[2], "entry count");
            boolean mirrored = !symmetry.equals("general");
            long most = mirrored ? (long) rows * (rows + 1) / 2 : (long) rows * cols;
            long fileBytes = bytesRead + bytesLeft;
            long dimensionBound = Math.max(MIN_DIMENSION_BOUND, DIMENSIONS_PER_BYTE * fileBytes);
            if (rows > dimensionBound || cols > dimensionBound) {
                throw fault("size line claims " + rows + "x" + cols + "; a coordinate file of " + fileBytes
                        + " bytes may have at most " + dimensionBound + " rows and columns (each takes memory, entries or not)");
            }
            if (entries < 0 || entries > most) throw fault("size line claims " + entries + " entries, a " + rows + "x" + cols + " " + symmetry + " matrix holds at most " + most);
            if (entries > (bytesLeft + 1) / 4) {
                throw fault("size line claims " + entries + " entries, the " + bytesLeft + " bytes left hold at most " + (bytesLeft + 1) / 4);
            }
            long stored = mirrored ? 2 * entries : entries;
            if (stored > Integer.MAX_VALUE - 8) throw fault(stored + " entries do not fit in memory arrays");
            int[] r = new int[(int) stored];
            int[] c = new int[(int) stored];
            float[] v = new float[(int) stored];
            int n = 0;
            for (long e = 0; e < entries; e++) {
                String text = nextData();
                if (text == null) throw fault("only " + e + " of the " + entries + " entries the size line claims");
                String[] t = tokens(text, "entry");
                if (t.length != (pattern ? 2 : 3)) throw fault("entry needs " + (pattern ? "'i j'" : "'i j value'"));
                int i = index(t[0], rows, "row");
                int j = index(t[1], cols, "column");
                float value = pattern ? 1.0f : value(t[2]);
                if (mirrored && j > i) throw fault(symmetry + " file stores an entry above the diagonal (" + (i + 1) + ", " + (j + 1) + ")");
                r[n] = i;
                c[n] = j;
                v[n++] = value;
                if (mirrored && i != j) {
                    r[n] = j;
                    c[n] = i;
                    v[n++] = symmetry.equals("skew-symmetric") ? -value : value;
                }
            }
            if (nextData() != null) throw fault("more entries than the " + entries + " the size line claims");
            return SparseRowsView.fromEntries(rows, cols, r, c, v, n);
        }

        private MatrixView array(int rows, int cols, String symmetry, long bytesLeft) throws IOException {
            boolean mirrored = !symmetry.equals("general");
            long values = mirrored ? (long) rows * (rows + 1) / 2 - (symmetry.equals("skew-symmetric") ? rows : 0) : (long) rows * cols;
            if (values > (bytesLeft + 1) / 2) {
                throw fault("size line claims " + values + " values, the " + bytesLeft + " bytes left hold at most " + (bytesLeft + 1) / 2);
            }
            if ((long) rows * cols > Integer.MAX_VALUE - 8) throw fault(rows + "x" + cols + " does not fit in a memory array");
            float[] dense = new float[rows * cols];
            for (int j = 0; j < cols; j++) {
                int from = !mirrored ? 0 : symmetry.equals("symmetric") ? j : j + 1;
                for (int i = from; i < rows; i++) {
                    String text = nextData();
                    if (text == null) throw fault("only part of the " + values + " values the size line claims");
                    String[] t = tokens(text, "value");
                    if (t.length != 1) throw fault("array files hold one value per line");
                    float x = value(t[0]);
                    dense[i * cols + j] = x;
                    if (mirrored && i != j) dense[j * cols + i] = symmetry.equals("skew-symmetric") ? -x : x;
                }
            }
            if (nextData() != null) throw fault("more values than the " + values + " the size line claims");
            return MatrixView.of(rows, cols, dense);
        }

        private String nextRaw() throws IOException {
            String s = in.readLine();
            if (s != null) {
                line++;
                bytesRead += s.length() + 1;
            }
            return s;
        }

        /** The next line that is neither a comment nor blank, or null at the end. */
        private String nextData() throws IOException {
            while (true) {
                String s = nextRaw();
                if (s == null) return null;
                String t = s.strip();
                if (!t.isEmpty() && t.charAt(0) != '%') return t;
            }
        }

        private String[] tokens(String text, String what) {
            if (text == null) throw fault("missing " + what);
            return text.split("\\s+");
        }

        private int dimension(String[] t, int k) {
            if (t.length < 2) throw fault("size line needs at least 'rows cols'");
            long v = number(t[k], k == 0 ? "rows" : "cols");
            if (v <= 0 || v > Integer.MAX_VALUE - 8) throw fault((k == 0 ? "rows" : "cols") + " " + v + " out of range");
            return (int) v;
        }

        private int index(String text, int bound, String what) {
            long v = number(text, what);
            if (v < 1 || v > bound) throw fault(what + " index " + v + " outside 1.." + bound);
            return (int) (v - 1);
        }

        private long number(String text, String what) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw fault("bad " + what + " '" + text + "'");
            }
        }

        private float value(String text) {
            try {
                return Float.parseFloat(text);
            } catch (NumberFormatException e) {
                throw fault("bad value '" + text + "'");
            }
        }

        private ModelFormatException fault(String what) {
            return ModelFormatException.in(source, "line " + line + ": " + what);
        }
    }
}
