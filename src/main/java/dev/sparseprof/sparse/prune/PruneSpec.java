package dev.sparseprof.sparse.prune;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.Checks;
import dev.sparseprof.util.SparseprofException;
import java.math.BigDecimal;
import java.util.List;

/**
 * How to prune, as the {@code prune} command's options say it. {@link #describe()} gives the
 * options back ({@code --nm 2:4}), so the string recorded in a pruned file's {@code __metadata__}
 * both reads well and parses again with {@link #parse(List)}.
 *
 * <p>Counts are exact: pruning a sparsity S from n items (weights, blocks or rows) removes
 * {@code floor(S * n)} of them, with S taken as the decimal the user wrote (0.29 of 100 is 29).
 */
public sealed interface PruneSpec {
    /** The CLI options that produce this spec. */
    String describe();

    /** Unstructured magnitude pruning: the largest |w| survive, per layer or over all layers. */
    record Magnitude(double sparsity, PruneScope scope) implements PruneSpec {
        public Magnitude {
            Checks.fraction(sparsity, "--sparsity");
            if (scope == null) throw new SparseprofException("magnitude pruning needs a scope");
        }

        @Override public String describe() {
            return "--sparsity " + plain(sparsity) + " --scope " + scope.label();
        }
    }

    /** N:M along the reduction dimension: each group of M in a row keeps its N largest |w|. */
    record Nm(NmPattern pattern) implements PruneSpec {
        public Nm {
            if (pattern == null) throw new SparseprofException("N:M pruning needs a pattern");
        }

        @Override public String describe() {
            return "--nm " + pattern.label();
        }
    }

    /** Block pruning: RxC tiles ranked by L2 norm, the weakest {@code floor(S * blocks)} zeroed. */
    record Block(BlockShape shape, double sparsity) implements PruneSpec {
        public Block {
            if (shape == null) throw new SparseprofException("block pruning needs a block shape");
            Checks.fraction(sparsity, "--sparsity");
        }

        @Override public String describe() {
            return "--block " + shape.label() + " --sparsity " + plain(sparsity);
        }
    }

    /** Structured row (output channel) pruning: rows ranked by L2 norm. */
    record Rows(double sparsity) implements PruneSpec {
        public Rows {
            Checks.fraction(sparsity, "--rows");
        }

        @Override public String describe() {
            return "--rows " + plain(sparsity);
        }
    }

    private static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /**
     * The spec of the CLI options, each {@code null} when absent:
     * {@code --sparsity S [--scope layer|global] | --nm N:M | --block RxC --sparsity S | --rows S}.
     */
    static PruneSpec of(String sparsity, String scope, String nm, String block, String rows) {
        int chosen = (nm != null ? 1 : 0) + (block != null ? 1 : 0) + (rows != null ? 1 : 0)
                + (sparsity != null && block == null ? 1 : 0);
        if (chosen != 1) {
            throw new SparseprofException("prune: give exactly one of --sparsity S [--scope layer|global], --nm N:M, "
                    + "--block RxC --sparsity S, --rows S");
        }
        if (scope != null && (sparsity == null || block != null)) {
            throw new SparseprofException("prune: --scope applies only to --sparsity without --block");
        }
        if (nm != null) return new Nm(NmPattern.parse(nm));
        if (rows != null) return new Rows(number(rows, "--rows"));
        if (block != null) {
            if (sparsity == null) throw new SparseprofException("prune: --block needs --sparsity S");
            return new Block(BlockShape.parse(block), number(sparsity, "--sparsity"));
        }
        return new Magnitude(number(sparsity, "--sparsity"), scope == null ? PruneScope.LAYER : PruneScope.parse(scope));
    }

    /** Parses option tokens such as {@code ["--block", "4x4", "--sparsity", "0.5"]}. */
    static PruneSpec parse(List<String> args) {
        String sparsity = null;
        String scope = null;
        String nm = null;
        String block = null;
        String rows = null;
        for (int i = 0; i < args.size(); i++) {
            String option = args.get(i);
            if (i + 1 >= args.size()) throw new SparseprofException("prune: option " + option + " needs a value");
            String value = args.get(++i);
            switch (option) {
                case "--sparsity" -> sparsity = once(sparsity, value, option);
                case "--scope" -> scope = once(scope, value, option);
                case "--nm" -> nm = once(nm, value, option);
                case "--block" -> block = once(block, value, option);
                case "--rows" -> rows = once(rows, value, option);
                default -> throw new SparseprofException("prune: unknown option '" + option
                        + "' (known: --sparsity, --scope, --nm, --block, --rows)");
            }
        }
        return of(sparsity, scope, nm, block, rows);
    }

    /** Parses the {@link #describe()} form, e.g. {@code "--sparsity 0.9 --scope global"}. */
    static PruneSpec parse(String options) {
        return parse(List.of(options.trim().split("\\s+")));
    }

    private static String once(String previous, String value, String option) {
        if (previous != null) throw new SparseprofException("prune: " + option + " given twice");
        return value;
    }

    private static double number(String text, String option) {
        try {
            return Checks.fraction(Double.parseDouble(text.trim()), option);
        } catch (NumberFormatException e) {
            throw new SparseprofException(option + " '" + text + "': expected a number in [0, 1]");
        }
    }
}
