package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;
import java.util.Locale;

/** A tile shape of {@code rows x cols} elements, used by block statistics and by BSR. */
public record BlockShape(int rows, int cols) {
    public static final BlockShape B4X4 = new BlockShape(4, 4);
    public static final BlockShape B8X8 = new BlockShape(8, 8);
    public static final BlockShape B16X16 = new BlockShape(16, 16);

    public BlockShape {
        if (rows < 1 || cols < 1) throw new SparseprofException("block shape " + rows + "x" + cols + ": both sides must be positive");
    }

    /** Parses {@code "4x4"} or {@code "2X8"}. */
    public static BlockShape parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int x = t.indexOf('x');
        if (x <= 0 || x == t.length() - 1) throw new SparseprofException("block shape '" + text + "': expected RxC such as 4x4");
        try {
            return new BlockShape(Integer.parseInt(t.substring(0, x)), Integer.parseInt(t.substring(x + 1)));
        } catch (NumberFormatException e) {
            throw new SparseprofException("block shape '" + text + "': R and C must be whole numbers");
        }
    }

    /** {@code "4x4"}. */
    public String label() {
        return rows + "x" + cols;
    }

    /** Block rows of a matrix with {@code matrixRows} rows, the partial edge included. */
    public int blockRowsOf(int matrixRows) {
        return (int) ((matrixRows + (long) rows - 1) / rows);
    }

    /** Block columns of a matrix with {@code matrixCols} columns, the partial edge included. */
    public int blockColsOf(int matrixCols) {
        return (int) ((matrixCols + (long) cols - 1) / cols);
    }

    public int area() {
        return rows * cols;
    }
}
