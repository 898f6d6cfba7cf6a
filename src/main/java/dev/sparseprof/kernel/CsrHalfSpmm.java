package dev.sparseprof.kernel;

import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;

/**
 * CSR SpMM with fp16 or bf16 value storage and fp32 accumulation: each row's values are decoded
 * into the thread's float scratch ({@code Float.float16ToFloat} / a 16-bit shift), then the row
 * runs the broadcast-and-FMA body ({@link BroadcastRows}). Halves the value bytes; the decode is
 * the price.
 *
 * <p>Per SIMD vector (L lanes): per row, per entry 1 16-bit load and 1 decode to an fp32 scratch
 * store; then the {@link BroadcastRows} body (per entry 1 value, 1 column, per vector 1 B load + 1
 * FMA; per row and block the C stores).
 */
public final class CsrHalfSpmm extends RowSplitKernel<HalfRowSlices> {
    private final HalfRowSlices.Encoding encoding;

    public CsrHalfSpmm(HalfRowSlices.Encoding encoding) {
        this.encoding = encoding;
    }

    @Override public String name() { return encoding == HalfRowSlices.Encoding.FP16 ? "csr-fp16" : "csr-bf16"; }

    @Override public HalfRowSlices prepare(MatrixView matrix) { return HalfRowSlices.of(CsrMatrix.from(matrix), encoding); }

    @Override public int rows(HalfRowSlices a) { return a.rows(); }

    @Override public int cols(HalfRowSlices a) { return a.cols(); }

    @Override public long storedEntries(HalfRowSlices a) { return a.nnz(); }

    @Override
    public long formatBytes(HalfRowSlices a) {
        long total = 0;
        for (long bytes : a.arrayBytes().values()) total += bytes;
        return total;
    }

    @Override public Map<ArrayRole, Long> arrayBytes(HalfRowSlices a) { return a.arrayBytes(); }

    @Override public int[] rowWork(HalfRowSlices a) { return a.rowPointers(); }

    @Override boolean rowPointersStored(HalfRowSlices a) { return true; }

    @Override public int valueBytes() { return Short.BYTES; }

    /** The decoded row values (up to a whole row: cols), then the traced twin's accumulators. */
    @Override public int scratchFloats(HalfRowSlices a, int n) { return a.cols() + BroadcastRows.TRACE_SCRATCH_FLOATS; }

    @Override public boolean readsAlignedB(int n) { return true; }

    /** Decodes values {@code [from, to)} into the scratch from index {@code at}. */
    private float[] decode(HalfRowSlices a, int from, int to, Workspace ws, int at) {
        float[] out = ws.scratch();
        short[] v = a.values();
        for (int j = from; j < to; j++) out[at + j - from] = encoding.decode(v[j]);
        return out;
    }

    @Override
    void row(Operands<HalfRowSlices> op, int r, int from, int to, Workspace ws) {
        float[] vals = decode(op.a(), from, to, ws, 0);
        BroadcastRows.compute(op, ws.rowSlice().set(vals, from, op.a().columnIndices(), 0, from, to, true),
                output(op, r, ws), outputOffset(op, r, ws));
    }

    @Override
    void traceRow(Operands<HalfRowSlices> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        // the accumulators take the scratch's first floats, the decoded values follow
        int at = BroadcastRows.TRACE_SCRATCH_FLOATS;
        float[] vals = decode(op.a(), from, to, ws, at);
        BroadcastRows.trace(op, new BroadcastRows.Slice(vals, from - at, op.a().columnIndices(), 0, from, to, true),
                output(op, r, ws), outputOffset(op, r, ws), ws.scratch(), tracer);
    }
}
