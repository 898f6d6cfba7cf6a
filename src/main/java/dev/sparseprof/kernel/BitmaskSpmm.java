package dev.sparseprof.kernel;

import dev.sparseprof.sparse.BitmaskMatrix;
import dev.sparseprof.sparse.CsrMatrix;
import dev.sparseprof.trace.ArrayRole;
import dev.sparseprof.util.MatrixView;
import java.util.Map;

/**
 * SpMM over bitmask storage: each row's columns are decoded from its bitmap words
 * ({@code numberOfTrailingZeros}, clear lowest bit) into the thread's index scratch, then the row
 * runs the broadcast-and-FMA body ({@link BroadcastRows}). A range that starts inside a row skips
 * the row's first entries while decoding.
 *
 * <p>Per SIMD vector (L lanes): per row, per 64-bit bitmap word 1 load, per set bit 1 tzcnt, 1
 * clear and 1 decoded column written to index scratch; then the {@link BroadcastRows} body (per
 * entry 1 value, 1 column, per vector 1 B load + 1 FMA; per row and block the C stores).
 */
public final class BitmaskSpmm extends RowSplitKernel<BitmaskRows> {
    @Override public String name() { return "bitmask"; }

    @Override public BitmaskRows prepare(MatrixView matrix) { return BitmaskRows.of(BitmaskMatrix.from(CsrMatrix.from(matrix))); }

    @Override public int rows(BitmaskRows a) { return a.matrix().rows(); }

    @Override public int cols(BitmaskRows a) { return a.matrix().cols(); }

    @Override public long storedEntries(BitmaskRows a) { return a.matrix().nnz(); }

    @Override public long formatBytes(BitmaskRows a) { return a.matrix().nnz() * (long) Float.BYTES + a.matrix().bitmap().length * (long) Long.BYTES; }

    @Override
    public Map<ArrayRole, Long> arrayBytes(BitmaskRows a) {
        return Map.of(ArrayRole.VALUES, a.matrix().nnz() * (long) Float.BYTES, ArrayRole.METADATA, a.matrix().bitmap().length * (long) Long.BYTES);
    }

    @Override public int[] rowWork(BitmaskRows a) { return a.rowStarts(); }

    @Override boolean rowPointersStored(BitmaskRows a) { return false; }

    @Override public int scratchFloats(BitmaskRows a, int n) { return BroadcastRows.TRACE_SCRATCH_FLOATS; }

    @Override public int indexScratchInts(BitmaskRows a) { return a.matrix().cols(); }

    @Override public boolean readsAlignedB(int n) { return true; }

    /** Decodes the columns of row r's entries {@code [from, to)} into the index scratch, from index 0. */
    private static int[] decode(BitmaskRows a, int r, int from, int to, Workspace ws) {
        int[] cols = ws.indexScratch();
        long[] bits = a.matrix().bitmap();
        int words = a.matrix().wordsPerRow();
        int entry = a.rowStarts()[r];
        int out = 0;
        for (int w = 0; w < words && entry < to; w++) {
            long word = bits[r * words + w];
            while (word != 0 && entry < to) {
                if (entry >= from) cols[out++] = (w << 6) + Long.numberOfTrailingZeros(word);
                word &= word - 1;
                entry++;
            }
        }
        return cols;
    }

    @Override
    void row(Operands<BitmaskRows> op, int r, int from, int to, Workspace ws) {
        int[] cols = decode(op.a(), r, from, to, ws);
        BroadcastRows.compute(op, ws.rowSlice().set(op.a().matrix().values(), cols, from, from, to, false),
                output(op, r, ws), outputOffset(op, r, ws));
    }

    @Override
    void traceRow(Operands<BitmaskRows> op, int r, int from, int to, Workspace ws, Tracer tracer) {
        int words = op.a().matrix().wordsPerRow();
        tracer.readMetadataBytes((long) r * words * Long.BYTES, words * Long.BYTES);
        int[] cols = decode(op.a(), r, from, to, ws);
        BroadcastRows.trace(op, new BroadcastRows.Slice(op.a().matrix().values(), cols, from, from, to, false),
                output(op, r, ws), outputOffset(op, r, ws), ws.scratch(), tracer);
    }
}
