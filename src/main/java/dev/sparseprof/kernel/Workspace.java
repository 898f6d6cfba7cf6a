package dev.sparseprof.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One thread's scratch space, owned by the caller and reused across calls so that kernels
 * allocate nothing: a scratch array (a transposed B, the traced twins' accumulators), an index
 * scratch (columns decoded from a format's metadata), an
 * off-heap scratch on a 64-byte boundary (packed B panels), the row slice of the broadcast
 * kernels, and the carry-out row of a range that ends inside a row. The off-heap part lives as long as the workspace is reachable.
 */
public final class Workspace {
    /** Cache-line alignment of the off-heap scratch. */
    public static final long ALIGNMENT_BYTES = 64;
    /**
     * Bytes allocated last, after the workspace's own arrays, so that the next thread's workspace
     * (allocated right after this one by {@link SpmmPlan}) does not start on cache lines next to
     * this one's. Without it the 2:4 kernel (the row slice and decoded columns written every row)
     * ran 1.65-1.75x faster on 2 threads than on 1 where csr ran 2x, with a thread imbalance of
     * 1.04-1.14; with it 1.94-2.09x and 1.002-1.01 (MiniLM layer.0, N = 64, Zen 4 VM, 7 Dec 2026;
     * docs/calibration.md, "The N:M decode"). Which line the threads shared was not found.
     */
    static final int SEPARATION_BYTES = 512;

    private final float[] scratch;
    private final MemorySegment alignedScratch;
    private final float[] carry;
    private final int[] indexScratch;
    private final BroadcastRows.Slice rowSlice = new BroadcastRows.Slice();
    private int carryRow = -1;
    /** Allocated last: see {@link #SEPARATION_BYTES}. */
    @SuppressWarnings("unused")
    private final byte[] separation;

    public Workspace(int scratchFloats, long alignedScratchFloats, int indexScratchInts, int n) {
        this.scratch = new float[scratchFloats];
        this.indexScratch = new int[indexScratchInts];
        this.alignedScratch = alignedScratchFloats == 0 ? MemorySegment.NULL
                : Arena.ofAuto().allocate(alignedScratchFloats * Float.BYTES, ALIGNMENT_BYTES);
        this.carry = new float[n];
        this.separation = new byte[SEPARATION_BYTES];
    }

    public float[] scratch() { return scratch; }

    public MemorySegment alignedScratch() { return alignedScratch; }

    public float[] carry() { return carry; }

    /** Decoded column indices of the row being computed. */
    public int[] indexScratch() { return indexScratch; }

    /**
     * The row slice the broadcast-and-FMA kernels point at each row's entries in turn, so that
     * their fast paths allocate nothing per row (see {@link BroadcastRows.Slice}).
     */
    BroadcastRows.Slice rowSlice() { return rowSlice; }

    /** The row the carry belongs to, or -1 when the last range ended on a row boundary. */
    public int carryRow() { return carryRow; }

    public void setCarryRow(int row) { carryRow = row; }
}
