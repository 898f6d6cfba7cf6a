package dev.sparseprof.kernel;

/**
 * One thread's scratch space, owned by the caller and reused across calls so that kernels
 * allocate nothing: a scratch array (packed B panels, a transposed B) and the carry-out row of
 * a range that ends inside a row.
 */
public final class Workspace {
    private final float[] scratch;
    private final float[] carry;
    private int carryRow = -1;

    public Workspace(int scratchFloats, int n) {
        this.scratch = new float[scratchFloats];
        this.carry = new float[n];
    }

    public float[] scratch() { return scratch; }

    public float[] carry() { return carry; }

    /** The row the carry belongs to, or -1 when the last range ended on a row boundary. */
    public int carryRow() { return carryRow; }

    public void setCarryRow(int row) { carryRow = row; }
}
