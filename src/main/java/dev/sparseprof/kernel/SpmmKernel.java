package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;

/**
 * One way of computing {@code C = A·B}: A ({@code rows x cols}, in the kernel's format {@code A})
 * times B ({@code cols x n}, fp32, row-major) into C ({@code rows x n}, fp32, row-major).
 *
 * <p>Contract: {@link #runRange} (the fast path) and {@link #traceRange} (its traced twin) have
 * one loop nest each and the twin follows exactly the fast path's order, pushing every memory
 * access to the tracer, and computing the same C (bit for bit, except where a horizontal
 * reduction's order is the hardware's, which the kernel then says in its comment). Both are
 * unchecked inner routines: shapes and lengths are checked once by {@link SpmmPlan}, the checked
 * entry point. They overwrite the rows they finish (no need to clear C) and put a partial last row
 * into {@link Workspace#carry()}. They allocate nothing: the caller owns the {@link Workspace},
 * sized by {@link #scratchFloats}. Kernels are stateless and may run on many threads at once.
 */
public interface SpmmKernel<A> {
    /** The registry name: {@code csr}, {@code csr-gather}, {@code dense}, ... */
    String name();

    /** Builds the operand in this kernel's format from any matrix (exact zeros not stored, if sparse). */
    A prepare(MatrixView matrix);

    int rows(A a);

    int cols(A a);

    /** Entries the kernel multiplies: nnz for sparse formats (padding included), rows*cols for dense. */
    long storedEntries(A a);

    /** Bytes of one stored value of A (4 for fp32, 2 for fp16/bf16 storage). */
    default int valueBytes() { return Float.BYTES; }

    /** Bytes of A as this kernel stores it (values, indices, pointers). */
    long formatBytes(A a);

    /** The bytes of each of A's arrays, by role, for laying them out in a traced run. */
    Map<ArrayRole, Long> arrayBytes(A a);

    /**
     * The work prefix over work rows, for partitions: length {@code workRows+1} (CSR: the row
     * pointers over its rows; BSR: the block row pointers over its block rows).
     */
    int[] rowWork(A a);

    /** Whether {@link #runRange} accepts ranges that cut a row (merge-path). */
    boolean splitsRows();

    /**
     * Whether the kernel's time is set by the FMA pipes: every stored entry of a dense tile or
     * block goes through them in register tiles, with no gather (dense, BSR). {@code measure}'s
     * speed canary, an FMA loop, judges only such kernels: on a shared core another tenant can
     * halve the FP pipes and leave a gather-bound kernel's time as it was (docs/kernels.md).
     */
    default boolean fmaBound() { return false; }

    /** The most threads the kernel can use (a column-scatter kernel writes any row of C: one). */
    default int maxThreads() { return Integer.MAX_VALUE; }

    /** Floats of per-thread scratch space the kernel needs for a B with {@code n} columns. */
    int scratchFloats(A a, int n);

    /**
     * Floats of per-thread scratch on a 64-byte boundary (off-heap: Java arrays have no address
     * to align, and a 512-bit load that straddles two cache lines halves the load bandwidth).
     */
    default long alignedScratchFloats(A a, int n) { return 0; }

    /** Ints of per-thread index scratch (columns a format decodes from its metadata, one row at a time). */
    default int indexScratchInts(A a) { return 0; }

    /** Whether the fast path at N = {@code n} reads B from {@link Operands#bAligned()}, a 64-byte aligned copy made per call. */
    default boolean readsAlignedB(int n) { return false; }

    void runRange(Operands<A> op, WorkRange range, Workspace ws);

    void traceRange(Operands<A> op, WorkRange range, Workspace ws, Tracer tracer);
}
