package dev.sparseprof.advise;

import dev.sparseprof.sparse.prune.PruneScope;
import dev.sparseprof.sparse.prune.PruneSpec;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.SparseprofException;

/**
 * A pruning pattern a plan may give a layer: unstructured magnitude at a sparsity, N:M along K
 * (its sparsity is 1 - N/M by construction), whole RxC blocks at a sparsity, or whole rows (output
 * channels) at a sparsity. {@link #label()} is the name the CLI, the JSON and the recipe use
 * ({@code unstructured}, {@code 2:4}, {@code bsr4x4}, {@code rows}) and {@link #parse} reads it back.
 */
public record Pattern(Kind kind, NmPattern nm, BlockShape block) {
    /** The pattern's family. */
    public enum Kind { UNSTRUCTURED, NM, BLOCK, ROWS }

    public static final Pattern UNSTRUCTURED = new Pattern(Kind.UNSTRUCTURED, null, null);
    public static final Pattern ROWS = new Pattern(Kind.ROWS, null, null);

    public Pattern {
        if (kind == null) throw new SparseprofException("a pattern needs a kind");
        if ((kind == Kind.NM) != (nm != null) || (kind == Kind.BLOCK) != (block != null)) {
            throw new SparseprofException("pattern " + kind + ": inconsistent parts");
        }
    }

    /** {@code unstructured}, {@code rows}, {@code N:M}, or {@code bsrRxC} (also {@code RxC}). */
    public static Pattern parse(String text) {
        String t = text.trim();
        if (t.equals("unstructured")) return UNSTRUCTURED;
        if (t.equals("rows") || t.equals("channel")) return ROWS;
        if (t.contains(":")) return new Pattern(Kind.NM, NmPattern.parse(t), null);
        String shape = t.startsWith("bsr") ? t.substring(3) : t;
        if (shape.contains("x")) return new Pattern(Kind.BLOCK, null, BlockShape.parse(shape));
        throw new SparseprofException("unknown pattern '" + text + "' (known: unstructured, rows, N:M such as 2:4, bsrRxC such as bsr4x4)");
    }

    public String label() {
        return switch (kind) {
            case UNSTRUCTURED -> "unstructured";
            case ROWS -> "rows";
            case NM -> nm.label();
            case BLOCK -> "bsr" + block.label();
        };
    }

    /** True for N:M, whose sparsity is fixed ({@link #fixedSparsity()}). */
    public boolean hasFixedSparsity() {
        return kind == Kind.NM;
    }

    /** 1 - N/M for N:M; NaN otherwise. */
    public double fixedSparsity() {
        return kind == Kind.NM ? 1.0 - (double) nm.n() / nm.m() : Double.NaN;
    }

    /** The pruning that gives this pattern at {@code sparsity} (ignored for N:M). */
    public PruneSpec spec(double sparsity) {
        return switch (kind) {
            case UNSTRUCTURED -> new PruneSpec.Magnitude(sparsity, PruneScope.LAYER);
            case ROWS -> new PruneSpec.Rows(sparsity);
            case NM -> new PruneSpec.Nm(nm);
            case BLOCK -> new PruneSpec.Block(block, sparsity);
        };
    }

    /**
     * Why this pattern cannot be laid exactly on a {@code rows x cols} weight (N:M needs K a multiple
     * of M, a block shape needs both sides multiples of its own, else the hardware format cannot
     * hold the pruned layer as planned), or null when it can.
     */
    public String impossibleOn(int rows, int cols) {
        if (kind == Kind.NM && cols % nm.m() != 0) {
            return nm.label() + " needs K (columns) a multiple of " + nm.m() + ", the layer has K = " + cols;
        }
        if (kind == Kind.BLOCK && (rows % block.rows() != 0 || cols % block.cols() != 0)) {
            return "block " + block.label() + " needs a " + rows + "x" + cols + " weight to split into whole blocks; it does not";
        }
        return null;
    }
}
