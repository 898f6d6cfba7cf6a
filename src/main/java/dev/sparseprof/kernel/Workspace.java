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

    private final float[] scratch;
    private final MemorySegment alignedScratch;
    private final float[] carry;
    private final int[] indexScratch;
    private final BroadcastRows.Slice rowSlice = new BroadcastRows.Slice();
    private int carryRow = -1;

    public Workspace(int scratchFloats, long alignedScratchFloats, int indexScratchInts, int n) {
        this.scratch = new float[scratchFloats];
        this.indexScratch = new int[indexScratchInts];
        this.alignedScratch = alignedScratchFloats == 0 ? MemorySegment.NULL
                : Arena.ofAuto().allocate(alignedScratchFloats * Float.BYTES, ALIGNMENT_BYTES);
        this.carry = new float[n];
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
