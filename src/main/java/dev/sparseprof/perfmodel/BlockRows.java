package dev.sparseprof.perfmodel;

/**
 * For a blocked format of {@code blockRows x blockCols} blocks: how many blocks hold at least one
 * non-zero, per block row ({@code perBlockRow.length == ceil(M / blockRows)}).
 */
public record BlockRows(int blockRows, int blockCols, RowLengths perBlockRow) {
    public BlockRows {
        if (blockRows <= 0 || blockCols <= 0) throw new IllegalArgumentException("block shape must be positive");
    }

    public long nonZeroBlocks() {
        return perBlockRow.total();
    }

    /** The registry-style name, {@code bsr4x4}. */
    public String formatName() {
        return "bsr" + blockRows + "x" + blockCols;
    }
}
