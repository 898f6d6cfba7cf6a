package dev.sparseprof.kernel;

/**
 * Splits a row-wise kernel's work among threads.
 *
 * <p>Contract: {@code work} is the per-row work prefix ({@code work[0] = 0}, non-decreasing,
 * {@code work[rows]} = total; for CSR the row pointers). {@link #split} returns exactly
 * {@code parts} ranges that together cover every row and every entry once, in order (a range may
 * be empty). Only partitions with {@link #splitsRows()} true may cut a row in two; kernels that
 * cannot carry a partial row out reject them. Implementations are stateless.
 */
public interface Partition {
    String name();

    boolean splitsRows();

    WorkRange[] split(int[] work, int parts);
}
