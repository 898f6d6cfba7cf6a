package dev.sparseprof.sparse;

import dev.sparseprof.sparse.stats.BlockShape;
import dev.sparseprof.sparse.stats.MatrixStats;
import dev.sparseprof.sparse.stats.NmPattern;
import dev.sparseprof.util.DType;
import dev.sparseprof.util.MatrixView;
import dev.sparseprof.util.SparseprofException;

/**
 * A sparse storage format with its parameters, as named in the registry ({@link Formats}).
 *
 * <p>Contract: {@link #build} converts a matrix into this format exactly (see {@link SparseMatrix}
 * on explicit zeros);
 * {@link #cost} gives the exact bytes of what {@code build} would hold, from the matrix's
 * statistics alone, so a performance model can size many formats on many layers without building
 * them; {@code cost(MatrixScan.of(m), d)} equals {@code build(m).storage(d)}. {@link #canHold}
 * says whether {@code build} would succeed (only N:M layouts can refuse a matrix).
 */
public sealed interface Format {
    /** The registry name: {@code csr}, {@code bsr4x4}, {@code sell-32-256}, {@code 2:4}, ... */
    String name();

    SparseMatrix build(CsrMatrix matrix);

    default SparseMatrix build(MatrixView matrix) {
        return build(CsrMatrix.from(matrix));
    }

    StorageCost cost(MatrixStats stats, DType dtype);

    default boolean canHold(MatrixStats stats) {
        return true;
    }

    record Csr() implements Format {
        public static final Csr INSTANCE = new Csr();

        @Override public String name() { return "csr"; }

        @Override public CsrMatrix build(CsrMatrix matrix) { return matrix; }

        @Override public StorageCost cost(MatrixStats s, DType dtype) { return CsrMatrix.storage(s.rows(), s.cols(), s.nnz(), dtype); }
    }

    record Csc() implements Format {
        public static final Csc INSTANCE = new Csc();

        @Override public String name() { return "csc"; }

        @Override public CscMatrix build(CsrMatrix matrix) { return CscMatrix.from(matrix); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) { return CscMatrix.storage(s.rows(), s.cols(), s.nnz(), dtype); }
    }

    record Coo() implements Format {
        public static final Coo INSTANCE = new Coo();

        @Override public String name() { return "coo"; }

        @Override public CooMatrix build(CsrMatrix matrix) { return CooMatrix.from(matrix); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) { return CooMatrix.storage(s.rows(), s.cols(), s.nnz(), dtype); }
    }

    /** BSR with {@code shape} blocks; sizing from statistics needs a scan that counted this shape. */
    record Bsr(BlockShape shape) implements Format {
        public Bsr {
            if (shape == null) throw new SparseprofException("BSR format needs a block shape");
        }

        @Override public String name() { return "bsr" + shape.label(); }

        @Override public BsrMatrix build(CsrMatrix matrix) { return BsrMatrix.from(matrix, shape); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) {
            return BsrMatrix.storage(s.rows(), s.cols(), shape, s.nnz(), s.blocks(shape).nonEmptyBlocks(), dtype);
        }
    }

    record Ell() implements Format {
        public static final Ell INSTANCE = new Ell();

        @Override public String name() { return "ell"; }

        @Override public EllMatrix build(CsrMatrix matrix) { return EllMatrix.from(matrix); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) {
            return EllMatrix.storage(s.rows(), s.cols(), s.nnz(), s.rowSummary().max(), dtype);
        }
    }

    /** SELL-C-sigma: chunk height C, sort window sigma (1 = no sorting). */
    record Sell(int chunkHeight, int sigma) implements Format {
        public Sell {
            SellMatrix.checkParameters(chunkHeight, sigma);
        }

        @Override public String name() { return "sell-" + chunkHeight + "-" + sigma; }

        @Override public SellMatrix build(CsrMatrix matrix) { return SellMatrix.from(matrix, chunkHeight, sigma); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) {
            long slots = SellMatrix.slots(s.rowLengths().toArray(), chunkHeight, sigma);
            return SellMatrix.storage(s.rows(), s.cols(), chunkHeight, sigma, s.nnz(), slots, dtype);
        }
    }

    /**
     * An N:M compressed layout with {@code metadataBitsPerGroup} bits of position metadata per
     * group: {@code 2:4} (4 bits) for fp16/bf16/int8 tensor cores, {@code 1:2} (4 bits) for tf32.
     * Sizing from statistics needs a scan that measured this pattern's compliance.
     */
    record Nm(NmPattern pattern, int metadataBitsPerGroup) implements Format {
        public Nm {
            if (pattern == null || metadataBitsPerGroup < 1) throw new SparseprofException("N:M format needs a pattern and positive metadata bits");
        }

        @Override public String name() { return pattern.label(); }

        @Override public NmMatrix build(CsrMatrix matrix) { return NmMatrix.from(matrix, pattern, metadataBitsPerGroup); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) {
            if (!canHold(s)) {
                throw new SparseprofException("not " + pattern.label() + ": " + (s.nm(pattern).groups() - s.nm(pattern).compliantGroups())
                        + " groups have more than " + pattern.n() + " non-zeros (prune with --nm " + pattern.label() + " first)");
            }
            return NmMatrix.storage(s.rows(), s.cols(), pattern, metadataBitsPerGroup, s.nnz(), dtype);
        }

        @Override public boolean canHold(MatrixStats s) {
            return s.nm(pattern).isCompliant();
        }
    }

    record Bitmask() implements Format {
        public static final Bitmask INSTANCE = new Bitmask();

        @Override public String name() { return "bitmask"; }

        @Override public BitmaskMatrix build(CsrMatrix matrix) { return BitmaskMatrix.from(matrix); }

        @Override public StorageCost cost(MatrixStats s, DType dtype) { return BitmaskMatrix.storage(s.rows(), s.cols(), s.nnz(), dtype); }
    }
}
