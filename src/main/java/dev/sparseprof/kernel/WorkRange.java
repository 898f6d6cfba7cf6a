package dev.sparseprof.kernel;

/**
 * One thread's share of a row-wise kernel: the stored entries {@code [nzStart, nzEnd)} of rows
 * {@code rowStart ..= rowEnd}.
 *
 * <p>Rows {@code rowStart .. rowEnd-1} end inside the range and are written to C (the first one
 * may begin before {@code nzStart}: then the part before belongs to the previous thread, which
 * carries it out). Row {@code rowEnd} is begun but not finished when {@code nzEnd} lies past its
 * start: that partial sum is this thread's carry-out, added to C after all threads join
 * (Merrill &amp; Garland's merge-path fix-up). A range of whole rows has
 * {@code nzStart = work[rowStart]} and {@code nzEnd = work[rowEnd]}.
 */
public record WorkRange(int rowStart, int nzStart, int rowEnd, int nzEnd) {
    public WorkRange {
        if (rowStart < 0 || rowEnd < rowStart || nzStart < 0 || nzEnd < nzStart) {
            throw new IllegalArgumentException("work range rows " + rowStart + ".." + rowEnd + " nz " + nzStart + ".." + nzEnd);
        }
    }

    /** Whole rows {@code [rowStart, rowEnd)} of a kernel whose per-row work prefix is {@code work}. */
    public static WorkRange wholeRows(int[] work, int rowStart, int rowEnd) {
        return new WorkRange(rowStart, work[rowStart], rowEnd, work[rowEnd]);
    }

    /** True when the range starts or ends inside a row. */
    public boolean splitsRows(int[] work) {
        return nzStart != work[rowStart] || (nzEnd != work[rowEnd]);
    }
}
