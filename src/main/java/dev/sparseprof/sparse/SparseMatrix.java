package dev.sparseprof.sparse;

import dev.sparseprof.util.DType;

/**
 * A {@code rows x cols} float matrix held in one sparse storage format.
 *
 * <p>Contract: an implementation is a final class over private arrays with a documented invariant
 * that the constructor checks ({@link #validate()}); its accessors return the backing arrays
 * without copying, for kernels, which must not modify them. {@link #toCsr()} gives the same
 * matrix in CSR; conversion between any two formats goes through it and is exact. Explicit zeros
 * (stored 0.0f entries, which {@link CsrMatrix#from} never makes) survive CSR, CSC, COO and
 * bitmask, and are dropped by the padded formats (BSR, ELL, SELL, N:M), which cannot tell them
 * from padding. {@link #storage(DType)} counts the bytes of exactly what the instance holds, and
 * equals {@code format().cost(stats, dtype)} for the statistics of the same matrix.
 */
public sealed interface SparseMatrix
        permits CsrMatrix, CscMatrix, CooMatrix, BsrMatrix, EllMatrix, SellMatrix, NmMatrix, BitmaskMatrix {
    int rows();

    int cols();

    /** The stored non-zeros (padding excluded). */
    int nnz();

    /** Checks the invariant; throws {@link dev.sparseprof.util.SparseprofException} naming the fault. */
    void validate();

    /** The format this matrix is held in, with its parameters (block shape, chunk height, ...). */
    Format format();

    /** The exact bytes of this instance with values of {@code dtype}. */
    StorageCost storage(DType dtype);

    CsrMatrix toCsr();

    /** The matrix, row-major (for tests and small matrices). */
    default float[] toDense() {
        return toCsr().toDense();
    }
}
