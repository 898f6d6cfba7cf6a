package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;

/**
 * An N:M sparsity pattern along the reduction dimension: in every group of {@code m} consecutive
 * elements of a row of A, at most {@code n} are non-zero. Groups start at column 0; a partial last
 * group (when {@code cols % m != 0}) is a group over its real elements.
 */
public record NmPattern(int n, int m) {
    public static final NmPattern TWO_FOUR = new NmPattern(2, 4);
    public static final NmPattern ONE_TWO = new NmPattern(1, 2);
    public static final NmPattern FOUR_EIGHT = new NmPattern(4, 8);

    public NmPattern {
        if (m < 1 || n < 0 || n >= m) {
            throw new SparseprofException("N:M pattern " + n + ":" + m + ": need 0 <= N < M");
        }
    }

    /** Parses {@code "2:4"}. */
    public static NmPattern parse(String text) {
        String t = text.trim();
        int colon = t.indexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new SparseprofException("N:M pattern '" + text + "': expected N:M such as 2:4");
        }
        try {
            return new NmPattern(Integer.parseInt(t.substring(0, colon)), Integer.parseInt(t.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new SparseprofException("N:M pattern '" + text + "': N and M must be whole numbers");
        }
    }

    /** {@code "2:4"}. */
    public String label() {
        return n + ":" + m;
    }

    /** Number of groups in a row of {@code cols} elements, the partial last one included. */
    public long groupsPerRow(int cols) {
        return (cols + (long) m - 1) / m;
    }
}
