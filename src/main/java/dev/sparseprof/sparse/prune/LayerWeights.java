package dev.sparseprof.sparse.prune;

import dev.sparseprof.util.SparseprofException;

/**
 * One layer's weight matrix A in GEMM orientation ({@code rows} output features by {@code cols}
 * along the reduction dimension), row-major, pruned in place: the caller keeps the array and turns
 * it back into a tensor afterwards.
 */
public final class LayerWeights {
    private final String name;
    private final int rows;
    private final int cols;
    private final float[] values;

    /** Wraps {@code values} (not copied). */
    public LayerWeights(String name, int rows, int cols, float[] values) {
        if (name == null) throw new SparseprofException("layer weights need a name");
        if (rows < 0 || cols < 0 || (long) rows * cols != values.length) {
            throw new SparseprofException("layer '" + name + "': " + values.length + " weights do not make " + rows + "x" + cols);
        }
        this.name = name;
        this.rows = rows;
        this.cols = cols;
        this.values = values;
    }

    public String name() { return name; }

    public int rows() { return rows; }

    public int cols() { return cols; }

    /** The row-major weights, modified in place by pruning. */
    public float[] values() { return values; }

    long nonZeros() {
        // branch-free: after pruning, zeros are scattered at random and a branch would mispredict half the time
        long n = 0;
        for (float v : values) n += ((Float.floatToRawIntBits(v) & 0x7fffffff) + 0x7fffffff) >>> 31;
        return n;
    }
}
