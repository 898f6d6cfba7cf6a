package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;
import java.util.List;

/**
 * Sparsity statistics of one {@code rows x cols} matrix A (rows = output features, cols = the
 * reduction dimension K), as one scan over its rows ({@link MatrixScan}) measures them.
 *
 * @param rowLengths non-zeros of every row, in order
 * @param columnCounts non-zeros of every column, or {@code null} when the scan did not count them
 * @param nm compliance per N:M pattern the scan was asked for
 * @param blocks density per block shape the scan was asked for
 */
public record MatrixStats(int rows, int cols, long nnz, Lengths rowLengths, Lengths columnCounts,
                          List<NmCompliance> nm, List<BlockDensity> blocks) {
    public MatrixStats {
        if (rows < 0 || cols < 0) throw new SparseprofException("matrix stats: negative shape " + rows + "x" + cols);
        if (rowLengths == null || rowLengths.count() != rows || rowLengths.sum() != nnz) {
            throw new SparseprofException("matrix stats: row lengths do not match " + rows + " rows and " + nnz + " nnz");
        }
        if (columnCounts != null && (columnCounts.count() != cols || columnCounts.sum() != nnz)) {
            throw new SparseprofException("matrix stats: column counts do not match " + cols + " columns and " + nnz + " nnz");
        }
        nm = List.copyOf(nm);
        blocks = List.copyOf(blocks);
    }

    /** {@code rows * cols}. */
    public long elements() {
        return (long) rows * cols;
    }

    /** {@code 1 - nnz / (rows*cols)}; 0 for a matrix without elements. */
    public double sparsity() {
        return elements() == 0 ? 0.0 : 1.0 - (double) nnz / elements();
    }

    public LengthSummary rowSummary() {
        return rowLengths.summary();
    }

    /** Summary of the column counts; an error when the scan did not count columns. */
    public LengthSummary columnSummary() {
        if (columnCounts == null) throw new SparseprofException("statistics hold no column counts (scan with columnCounts = true)");
        return columnCounts.summary();
    }

    /** The compliance for {@code pattern}; an error naming the scanned patterns when it was not scanned. */
    public NmCompliance nm(NmPattern pattern) {
        for (NmCompliance c : nm) if (c.pattern().equals(pattern)) return c;
        throw new SparseprofException("statistics hold no " + pattern.label() + " compliance (scanned: "
                + String.join(", ", nm.stream().map(c -> c.pattern().label()).toList()) + ")");
    }

    /** The density for {@code shape}; an error naming the scanned shapes when it was not scanned. */
    public BlockDensity blocks(BlockShape shape) {
        for (BlockDensity d : blocks) if (d.shape().equals(shape)) return d;
        throw new SparseprofException("statistics hold no " + shape.label() + " block counts (scanned: "
                + String.join(", ", blocks.stream().map(d -> d.shape().label()).toList()) + ")");
    }

    public boolean hasBlocks(BlockShape shape) {
        for (BlockDensity d : blocks) if (d.shape().equals(shape)) return true;
        return false;
    }
}
