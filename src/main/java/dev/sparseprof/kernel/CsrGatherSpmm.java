package dev.sparseprof.kernel;

import dev.sparseprof.trace.ArrayRole;

/**
 * CSR row-split SpMM for small N (1-8), vectorized over a row's entries instead of over N: B is
 * first transposed into scratch (column-major, {@code n x cols}), then each row runs the gather
 * body ({@link GatherRows}) once per column {@code c} of B over {@code Bt[c*cols ..]}. ({@code csr}
 * runs the same body at N = 1, over B itself.)
 *
 * <p>The traced twin sums lanes pairwise, the fast path with {@code reduceLanes(ADD)} whose order
 * is the platform's (it differs even between the interpreter and C2): results agree to rounding,
 * not bit for bit.
 *
 * <p>Per SIMD vector (L lanes): per row, per column of B, per L entries: 1 value vector load, 1
 * column-index vector load, 1 gather of L elements of B^T, 1 FMA; per row and column 1 lane
 * reduction and 1 scalar store; per entry of the row's last {@code len mod L}: 2 scalar loads and
 * 1 scalar FMA. Per call: B transposed ({@code K x N} scalar copies).
 */
public final class CsrGatherSpmm extends SliceKernel {
    private static final int L = GatherRows.L;

    public CsrGatherSpmm() {
        super(SliceFormat.CSR);
    }

    @Override public String name() { return "csr-gather"; }

    /** The transposed B, then one vector of lane sums for the traced twin. */
    @Override public int scratchFloats(RowSlices a, int n) { return Math.multiplyExact(a.cols(), n) + L; }

    @Override
    void beginRange(Operands<RowSlices> op, Workspace ws) {
        float[] b = op.b();
        float[] bt = ws.scratch();
        int n = op.n();
        int k = op.a().cols();
        for (int row = 0; row < k; row++) {
            for (int c = 0; c < n; c++) bt[c * k + row] = b[row * n + c];
        }
    }

    @Override
    void traceBeginRange(Operands<RowSlices> op, Workspace ws, Tracer tracer) {
        float[] b = op.b();
        float[] bt = ws.scratch();
        int n = op.n();
        int k = op.a().cols();
        for (int row = 0; row < k; row++) {
            tracer.readFloats(ArrayRole.B_GATHER, (long) row * n, n);
            for (int c = 0; c < n; c++) {
                bt[c * k + row] = b[row * n + c];
                tracer.writeScratch(ArrayRole.B_GATHER, (long) c * k + row, 1);
            }
        }
    }

    @Override
    void row(Operands<RowSlices> op, int r, int from, int to, Workspace ws) {
        float[] out = output(op, r, ws);
        int outOffset = outputOffset(op, r, ws);
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] bt = ws.scratch();
        int n = op.n();
        int k = op.a().cols();
        for (int c = 0; c < n; c++) out[outOffset + c] = GatherRows.dot(vals, cols, from, to, bt, c * k);
    }

    @Override
    void traceRow(Operands<RowSlices> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        float[] out = output(op, r, ws);
        int outOffset = outputOffset(op, r, ws);
        boolean toCarry = out != op.c();
        float[] vals = op.a().values();
        int[] cols = op.a().columnIndices();
        float[] bt = ws.scratch();
        int n = op.n();
        int k = op.a().cols();
        int lanesAt = k * n;
        int whole = from + (to - from) / L * L;
        for (int c = 0; c < n; c++) {
            int bOffset = c * k;
            for (int i = 0; i < L; i++) bt[lanesAt + i] = 0f;
            int j = from;
            for (; j < whole; j += L) {
                tracer.readValues(j, L);
                tracer.readIndices(ArrayRole.COLUMN_INDICES, j, L);
                for (int i = 0; i < L; i++) {
                    tracer.readScratch(ArrayRole.B_GATHER, (long) bOffset + cols[j + i], 1);
                    bt[lanesAt + i] = Math.fma(bt[bOffset + cols[j + i]], vals[j + i], bt[lanesAt + i]);
                }
            }
            for (int width = L / 2; width >= 1; width /= 2) {
                for (int i = 0; i < width; i++) bt[lanesAt + i] += bt[lanesAt + i + width];
            }
            float sum = bt[lanesAt];
            for (; j < to; j++) {
                tracer.readValues(j, 1);
                tracer.readIndices(ArrayRole.COLUMN_INDICES, j, 1);
                tracer.readScratch(ArrayRole.B_GATHER, (long) bOffset + cols[j], 1);
                sum = Math.fma(bt[bOffset + cols[j]], vals[j], sum);
            }
            out[outOffset + c] = sum;
            if (toCarry) tracer.writeCarry(c, 1);
            else tracer.writeFloats(ArrayRole.C_SCATTER, (long) outOffset + c, 1);
        }
    }
}
