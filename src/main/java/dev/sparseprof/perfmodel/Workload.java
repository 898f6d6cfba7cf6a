package dev.sparseprof.perfmodel;

import dev.sparseprof.sparse.StorageCost;
import dev.sparseprof.sparse.stats.BlockDensity;
import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.Lengths;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmCompliance;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import java.util.Arrays;
import java.util.List;

/**
 * One layer's GEMM as the performance models see it: {@code C[M x N] = A[M x K] · B[K x N]} with
 * A's statistics (non-zeros per row, 2:4 compliance, 4x4 block counts, from {@code sparse.stats})
 * and the value type; {@code matrix} is A itself when known (null for synthetic workloads), which a
 * trace-driven memory model replays. The bytes of each format come from {@code sparse}'s {@link StorageCost}, so
 * the model and the {@code formats} command agree byte for byte. Synthetic workloads (tests, the
 * published validation cases) are built with {@link #dense} and {@link #uniformSparse}. {@code runs}
 * is the probability the GEMM runs in a batch (1; less for a routed expert in a small batch).
 * {@code weightBits}: the bits per weight of A stored dense, as the dense kernel reads it:
 * {@code dtype}'s, or a block-quantized encoding's (GGUF Q4_0 multiplied in int8 reads 4.5 bits
 * per weight, not 8; {@code model.GemmLayer#storedBitsPerWeight}).
 */
public record Workload(String name, MatrixStats stats, long denseColumns, DType dtype, MatrixView matrix, double runs, double weightBits) {
    /** A GEMM that runs once per batch, its weights stored in {@code dtype}. */
    public Workload(String name, MatrixStats stats, long denseColumns, DType dtype, MatrixView matrix) {
        this(name, stats, denseColumns, dtype, matrix, 1, dtype.bits());
    }

    public Workload {
        if (!(runs > 0 && runs <= 1)) throw new IllegalArgumentException(name + ": runs " + runs);
        if (!(weightBits > 0 && weightBits <= 64)) throw new IllegalArgumentException(name + ": " + weightBits + " bits per weight");
        if (matrix != null && (matrix.rows() != stats.rows() || matrix.cols() != stats.cols())) {
            throw new IllegalArgumentException(name + ": matrix and statistics disagree on the shape");
        }
        if (stats.rows() <= 0 || stats.cols() <= 0 || denseColumns <= 0) {
            throw new IllegalArgumentException(name + ": GEMM shape must be positive, got " + stats.rows() + "x" + stats.cols()
                    + " x N=" + denseColumns);
        }
    }

    /** Every weight non-zero. */
    public static Workload dense(String name, int m, int k, long n, DType dtype) {
        return uniformSparse(name, m, k, n, dtype, 1.0, false);
    }

    /**
     * Every row holds {@code round(K x density)} non-zeros; 4x4 blocks are as occupied as random
     * placement makes them ({@code 1 - (1 - density)^16} of them non-empty); 2:4 compliant as given.
     */
    public static Workload uniformSparse(String name, int m, int k, long n, DType dtype, double density, boolean twoFour) {
        int perRow = (int) Math.round(k * density);
        int[] rows = new int[m];
        Arrays.fill(rows, perRow);
        long nnz = (long) m * perRow;
        long blocks = (long) BlockShape.B4X4.blockRowsOf(m) * BlockShape.B4X4.blockColsOf(k);
        long nonEmpty = nnz == 0 ? 0 : Math.max((nnz + 15) / 16, Math.min(blocks, Math.round(blocks * (1 - Math.pow(1 - density, 16)))));
        long groups = (long) m * NmPattern.TWO_FOUR.groupsPerRow(k);
        MatrixStats stats = new MatrixStats(m, k, nnz, Lengths.of(rows), null,
                List.of(new NmCompliance(NmPattern.TWO_FOUR, groups, twoFour ? groups : 0)),
                List.of(new BlockDensity(BlockShape.B4X4, blocks, nonEmpty, Math.min(nonEmpty * 16, (long) m * k), nnz)));
        return new Workload(name, stats, n, dtype, null);
    }

    /**
     * A matrix of whole {@code shape} blocks, {@code blockDensity} of them kept, spread evenly over
     * the block rows (the block-sparse layers of the published BSR sweeps): every kept block is
     * full, so the non-zeros, the row lengths and the block counts of {@code shape} follow; no
     * other block shape or N:M pattern is counted. Requires M and K to be multiples of the block.
     */
    public static Workload blockSparse(String name, int m, int k, long n, DType dtype, BlockShape shape, double blockDensity) {
        if (m % shape.rows() != 0 || k % shape.cols() != 0) {
            throw new IllegalArgumentException(name + ": " + m + "x" + k + " is not a whole number of " + shape.label() + " blocks");
        }
        int blockRows = m / shape.rows();
        int blockCols = k / shape.cols();
        int[] perBlockRow = new int[blockRows];
        int[] rows = new int[m];
        long kept = 0;
        for (int b = 0; b < blockRows; b++) {
            // Round the running total, so the block rows hold the whole count evenly (differing by one at most).
            long upTo = Math.round(blockDensity * blockCols * (b + 1.0));
            perBlockRow[b] = (int) Math.min(blockCols, upTo - kept);
            kept += perBlockRow[b];
            Arrays.fill(rows, b * shape.rows(), (b + 1) * shape.rows(), perBlockRow[b] * shape.cols());
        }
        long nnz = kept * shape.area();
        long blocks = (long) blockRows * blockCols;
        MatrixStats stats = new MatrixStats(m, k, nnz, Lengths.of(rows), null, List.of(),
                List.of(new BlockDensity(shape, blocks, kept, nnz, nnz, Lengths.of(perBlockRow))));
        return new Workload(name, stats, n, dtype, null);
    }

    public int rows() {
        return stats.rows();
    }

    public int cols() {
        return stats.cols();
    }

    public long nnz() {
        return stats.nnz();
    }

    public Lengths rowLengths() {
        return stats.rowLengths();
    }

    public boolean twoFourCompliant() {
        return compliant(NmPattern.TWO_FOUR);
    }

    /** Whether every group of {@code pattern.m()} along K keeps at most {@code pattern.n()} (false when the scan did not count that pattern). */
    public boolean compliant(NmPattern pattern) {
        if (stats.cols() % pattern.m() != 0) return false;
        for (NmCompliance c : stats.nm()) if (c.pattern().equals(pattern)) return c.isCompliant();
        return false;
    }

    public BlockDensity blocks(BlockShape shape) {
        return stats.hasBlocks(shape) ? stats.blocks(shape) : null;
    }

    /** The bytes of A stored in {@code format} (a {@code sparse.Formats} name). */
    public StorageCost storage(String format) {
        return StorageCost.of(format, stats, dtype);
    }

    /** A's bytes stored dense, as the dense kernel reads them ({@code weightBits} per weight). */
    public double denseWeightBytes() {
        return (double) rows() * cols() * weightBits / 8;
    }

    public double sparsity() {
        return stats.sparsity();
    }

    public double denseFlops() {
        return 2.0 * rows() * cols() * denseColumns;
    }

    public double sparseFlops() {
        return 2.0 * nnz() * denseColumns;
    }

    public Workload withColumns(long n) {
        return new Workload(name, stats, n, dtype, matrix, runs, weightBits);
    }

    /** The same GEMM in another value type, its weights stored in that type. */
    public Workload withDType(DType d) {
        return new Workload(name, stats, denseColumns, d, matrix, runs, d.bits());
    }

    /**
     * The same GEMM run with probability {@code r} per batch (a routed expert's: {@code GemmLayer.activeShare}):
     * the models price a run and charge {@code r} of it ({@link Prediction#expected}).
     */
    public Workload withRuns(double r) {
        return new Workload(name, stats, denseColumns, dtype, matrix, r, weightBits);
    }

    /** The same GEMM without its weights (its statistics stay): what the sampled replays need is not kept. */
    public Workload withoutMatrix() {
        return new Workload(name, stats, denseColumns, dtype, null, runs, weightBits);
    }
}
