package dev.sparseprof.util;

/**
 * Receives progress of long work (a trace replay, a model scan). Implementations must be cheap:
 * callers report at most every few thousand items, and {@link #NONE} ignores everything.
 */
public interface Progress {
    /** {@code done} of {@code total} units are finished; {@code total <= 0} means unknown. */
    void update(long done, long total);

    /** The work is over; a terminal bar clears its line. */
    default void finish() {}

    Progress NONE = (done, total) -> {};
}
