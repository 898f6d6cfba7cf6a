package dev.sparseprof.sparse.stats;

import dev.sparseprof.util.SparseprofException;

/**
 * Block occupancy of a matrix tiled by {@code shape} (partial edge tiles included).
 *
 * @param blocks all tiles, {@code ceil(rows/R) * ceil(cols/C)}
 * @param nonEmptyBlocks tiles holding at least one non-zero (the blocks BSR stores)
 * @param nonEmptyElements real (unpadded) elements inside the non-empty tiles
 * @param nnz non-zeros of the matrix (all lie in non-empty tiles)
 * @param perBlockRow non-empty tiles of each band of R rows, in order (what a BSR kernel's block
 *     rows hold, so its load balance comes from the real distribution), or {@code null} when the
 *     counts were not taken row by row (synthetic statistics)
 */
public record BlockDensity(BlockShape shape, long blocks, long nonEmptyBlocks, long nonEmptyElements, long nnz, Lengths perBlockRow) {
    /** Totals only, no per-band counts. */
    public BlockDensity(BlockShape shape, long blocks, long nonEmptyBlocks, long nonEmptyElements, long nnz) {
        this(shape, blocks, nonEmptyBlocks, nonEmptyElements, nnz, null);
    }

    public BlockDensity {
        if (shape == null) throw new SparseprofException("block density: no shape");
        if (nonEmptyBlocks < 0 || nonEmptyBlocks > blocks || nnz < 0 || nnz > nonEmptyElements
                || nonEmptyElements > nonEmptyBlocks * (long) shape.area() || (nnz == 0) != (nonEmptyBlocks == 0)) {
            throw new SparseprofException("block density " + shape.label() + ": inconsistent counts " + nonEmptyBlocks
                    + " of " + blocks + " blocks, " + nnz + " nnz in " + nonEmptyElements + " elements");
        }
        if (perBlockRow != null && perBlockRow.sum() != nonEmptyBlocks) {
            throw new SparseprofException("block density " + shape.label() + ": per-band counts sum to " + perBlockRow.sum()
                    + ", not " + nonEmptyBlocks + " non-empty blocks");
        }
    }

    /** Fraction of tiles that hold at least one non-zero; 0 for an empty matrix. */
    public double nonEmptyFraction() {
        return blocks == 0 ? 0.0 : (double) nonEmptyBlocks / blocks;
    }

    /** Mean fill of the non-empty tiles: non-zeros over their real elements; 0 when none. */
    public double meanFill() {
        return nonEmptyElements == 0 ? 0.0 : (double) nnz / nonEmptyElements;
    }
}
